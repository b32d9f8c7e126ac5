// The Store contract, run against SQLite and PostgreSQL alike: whatever one backend does, the other
// must do too, because the App cannot tell which one it was given.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateInvalidError, STATE_VERSION, type ClusterState } from '../../src/store/index.js';
import type { ItemDecision, Store } from '../../src/store/types.js';
import { makeSnapshot, postgresFactory, sqliteFactory, type StateRows, type StoreFactory } from './support.js';

const received = '2026-12-02T03:06:00Z';

describe.each<StoreFactory>([sqliteFactory, postgresFactory])('$name store', (factory) => {
  let store: Store;
  let reopen: () => Promise<Store>;
  let cleanup: () => Promise<void>;
  let rows: StateRows;
  let execute: (sql: string) => Promise<void>;

  beforeEach(async () => {
    ({ store, reopen, cleanup, rows, execute } = await factory.create({ retain: 3 }));
  });
  afterEach(async () => cleanup());

  describe('snapshots', () => {
    it('stores a snapshot and hands it back as the latest, unchanged', async () => {
      const snapshot = makeSnapshot({ count: 5 });
      const result = await store.putSnapshot(snapshot, { digest: 'sha256:a', receivedAt: received });
      expect(result.type).toBe('stored');
      expect(result.meta).toMatchObject({
        repository: 'acme/platform-gitops',
        cluster: 'prod-eu',
        capturedAt: snapshot.capturedAt,
        receivedAt: received,
        digest: 'sha256:a',
        items: 5,
      });
      expect(result.meta.id).toMatch(/^snp_/);
      const latest = await store.latestSnapshot('acme/platform-gitops', 'prod-eu');
      expect(latest?.snapshot).toEqual(snapshot);
      expect(latest?.meta).toEqual(result.meta);
      expect(await store.getSnapshot(result.meta.id)).toEqual(latest);
    });

    it('keeps the document compressed', async () => {
      const snapshot = makeSnapshot({ count: 200 });
      const result = await store.putSnapshot(snapshot, { digest: 'sha256:big', receivedAt: received });
      expect(result.meta.bytes).toBeLessThan(JSON.stringify(snapshot).length / 5);
    });

    it('treats the same digest uploaded twice as one snapshot with one id', async () => {
      const snapshot = makeSnapshot();
      const first = await store.putSnapshot(snapshot, { digest: 'sha256:same', receivedAt: received });
      const second = await store.putSnapshot(snapshot, { digest: 'sha256:same', receivedAt: '2026-12-02T03:09:00Z' });
      expect(second.type).toBe('duplicate');
      expect(second.meta).toEqual(first.meta);
    });

    it('stores one snapshot when the same upload races itself', async () => {
      const snapshot = makeSnapshot();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => store.putSnapshot(snapshot, { digest: 'sha256:race', receivedAt: received })),
      );
      expect(results.map((r) => r.type).sort()).toEqual([
        'duplicate',
        'duplicate',
        'duplicate',
        'duplicate',
        'duplicate',
        'stored',
      ]);
      expect(new Set(results.map((r) => r.meta.id)).size).toBe(1);
    });

    it('stores a replayed older snapshot as stale, never as the latest', async () => {
      const newer = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T03:05:00Z', replicas: 8 }), {
        digest: 'sha256:new',
        receivedAt: received,
      });
      const older = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T02:55:00Z', replicas: 3 }), {
        digest: 'sha256:old',
        receivedAt: received,
      });
      expect(older.type).toBe('stale');
      expect(older.type === 'stale' && older.latest).toEqual(newer.meta);
      const latest = await store.latestSnapshot('acme/platform-gitops', 'prod-eu');
      expect(latest?.meta.id).toBe(newer.meta.id);
      expect(latest?.snapshot.items[0].spec).toMatchObject({ replicas: 8 });
    });

    it('orders a snapshot captured after the App received it (a clock ahead) by its receipt', async () => {
      const ahead = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T03:10:00Z', replicas: 2 }), {
        digest: 'sha256:ahead',
        receivedAt: '2026-12-02T03:06:00Z',
      });
      expect(ahead.type).toBe('stored');
      // Captured after the skewed one arrived, so newer, although its capturedAt is earlier.
      const honest = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T03:07:00Z', replicas: 4 }), {
        digest: 'sha256:honest',
        receivedAt: '2026-12-02T03:07:01Z',
      });
      expect(honest.type).toBe('stored');
      expect((await store.latestSnapshot('acme/platform-gitops', 'prod-eu'))?.snapshot.items[0].spec).toMatchObject({
        replicas: 4,
      });
      expect((await store.listClusters()).map((meta) => meta.id)).toEqual([honest.meta.id]);
      // Captured before the skewed one arrived: older than the state it would replace.
      const replay = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T03:05:00Z' }), {
        digest: 'sha256:replay',
        receivedAt: '2026-12-02T03:08:00Z',
      });
      expect(replay.type).toBe('stale');
      expect((await store.latestSnapshotMeta('acme/platform-gitops', 'prod-eu'))?.id).toBe(honest.meta.id);
    });

    it('compares capturedAt as instants, not strings, across time zone offsets', async () => {
      // 04:00+02:00 is 02:00Z: earlier than 03:00Z although it sorts later as text.
      await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T03:00:00Z' }), {
        digest: 'sha256:utc',
        receivedAt: received,
      });
      const shifted = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T04:00:00+02:00' }), {
        digest: 'sha256:offset',
        receivedAt: received,
      });
      expect(shifted.type).toBe('stale');
      const later = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T05:00:00+01:00' }), {
        digest: 'sha256:later',
        receivedAt: received,
      });
      expect(later.type).toBe('stored');
      expect((await store.latestSnapshotMeta('acme/platform-gitops', 'prod-eu'))?.id).toBe(later.meta.id);
    });

    it('keeps only the last N snapshots per cluster', async () => {
      const ids: string[] = [];
      for (let minute = 0; minute < 5; minute++) {
        const capturedAt = `2026-12-02T03:0${minute}:00Z`;
        ids.push(
          (await store.putSnapshot(makeSnapshot({ capturedAt }), { digest: `sha256:${minute}`, receivedAt: received }))
            .meta.id,
        );
      }
      const other = await store.putSnapshot(makeSnapshot({ cluster: 'prod-us', capturedAt: '2026-12-01T00:00:00Z' }), {
        digest: 'sha256:us',
        receivedAt: received,
      });
      const kept = await Promise.all(ids.map(async (id) => (await store.getSnapshot(id)) !== undefined));
      expect(kept).toEqual([false, false, true, true, true]);
      expect(await store.getSnapshot(other.meta.id)).toBeDefined();
      expect((await store.latestSnapshotMeta('acme/platform-gitops', 'prod-eu'))?.id).toBe(ids[4]);
    });

    it('lists every cluster by its latest snapshot, newest first', async () => {
      await store.putSnapshot(makeSnapshot({ cluster: 'staging', capturedAt: '2026-12-02T01:00:00Z' }), {
        digest: 'sha256:s1',
        receivedAt: received,
      });
      await store.putSnapshot(makeSnapshot({ cluster: 'prod-eu', capturedAt: '2026-12-02T02:00:00Z' }), {
        digest: 'sha256:p1',
        receivedAt: received,
      });
      await store.putSnapshot(makeSnapshot({ cluster: 'staging', capturedAt: '2026-12-02T03:00:00Z' }), {
        digest: 'sha256:s2',
        receivedAt: received,
      });
      await store.putSnapshot(
        makeSnapshot({ repository: 'acme/other', cluster: 'prod-eu', capturedAt: '2026-12-02T00:30:00Z' }),
        { digest: 'sha256:o1', receivedAt: received },
      );
      const clusters = await store.listClusters();
      expect(clusters.map((c) => [c.repository, c.cluster, c.capturedAt])).toEqual([
        ['acme/platform-gitops', 'staging', '2026-12-02T03:00:00Z'],
        ['acme/platform-gitops', 'prod-eu', '2026-12-02T02:00:00Z'],
        ['acme/other', 'prod-eu', '2026-12-02T00:30:00Z'],
      ]);
    });

    it('answers undefined for what it does not hold', async () => {
      expect(await store.getSnapshot('snp_missing')).toBeUndefined();
      expect(await store.latestSnapshot('acme/none', 'x')).toBeUndefined();
      expect(await store.latestSnapshotMeta('acme/none', 'x')).toBeUndefined();
      expect(await store.listClusters()).toEqual([]);
    });
  });

  describe('observations', () => {
    it('returns the last fingerprint sets newest first, recording each snapshot once', async () => {
      await store.recordObservations('acme/platform-gitops', 'prod-eu', 'snp_1', '2026-12-02T03:00:00Z', ['a', 'b']);
      await store.recordObservations('acme/platform-gitops', 'prod-eu', 'snp_3', '2026-12-02T03:10:00Z', ['b']);
      await store.recordObservations('acme/platform-gitops', 'prod-eu', 'snp_2', '2026-12-02T03:05:00Z', [
        'a',
        'c',
        'a',
      ]);
      await store.recordObservations('acme/platform-gitops', 'prod-eu', 'snp_2', '2026-12-02T03:05:00Z', ['a', 'c']);
      await store.recordObservations('acme/platform-gitops', 'prod-us', 'snp_9', '2026-12-02T03:20:00Z', ['z']);
      const history = await store.observationHistory('acme/platform-gitops', 'prod-eu', 2);
      expect(history).toEqual([
        { snapshotId: 'snp_3', capturedAt: '2026-12-02T03:10:00Z', fingerprints: new Set(['b']) },
        { snapshotId: 'snp_2', capturedAt: '2026-12-02T03:05:00Z', fingerprints: new Set(['a', 'c']) },
      ]);
      expect(await store.observationHistory('acme/platform-gitops', 'prod-eu', 10)).toHaveLength(3);
    });
  });

  describe('decisions', () => {
    it('remembers declined fingerprints per cluster', async () => {
      await store.recordDecisions([
        {
          repository: 'acme/platform-gitops',
          cluster: 'prod-eu',
          fingerprint: 'f1',
          pullRequest: 12,
          decidedAt: '2026-12-02T04:00:00Z',
        },
        {
          repository: 'acme/platform-gitops',
          cluster: 'prod-eu',
          fingerprint: 'f2',
          pullRequest: 12,
          decidedAt: '2026-12-02T04:00:00Z',
        },
        {
          repository: 'acme/platform-gitops',
          cluster: 'prod-us',
          fingerprint: 'f3',
          pullRequest: 13,
          decidedAt: '2026-12-02T04:00:00Z',
        },
      ]);
      await store.recordDecisions([
        {
          repository: 'acme/platform-gitops',
          cluster: 'prod-eu',
          fingerprint: 'f1',
          pullRequest: 15,
          decidedAt: '2026-12-02T05:00:00Z',
        },
      ]);
      await store.recordDecisions([]);
      expect(await store.declinedFingerprints('acme/platform-gitops', 'prod-eu')).toEqual(new Set(['f1', 'f2']));
      expect(await store.declinedFingerprints('acme/platform-gitops', 'staging')).toEqual(new Set());
    });
  });

  describe('decisions on single items and comment commands', () => {
    const decision = (fields: Partial<ItemDecision>): ItemDecision => ({
      repository: 'acme/platform-gitops',
      cluster: 'prod-eu',
      fingerprint: 'f1',
      action: 'ignore',
      object: 'Deployment/shop/cart',
      field: 'spec.replicas',
      reason: 'scaled for the sale',
      by: 'alice',
      decidedAt: '2026-12-02T04:00:00Z',
      pullRequest: 12,
      commentId: 9001,
      ...fields,
    });

    it('keeps who decided what, why and when, per repository and cluster, across a restart', async () => {
      await store.recordItemDecisions([
        decision({}),
        decision({ fingerprint: 'f2', action: 'allow', field: '', reason: 'break-glass binding', by: 'bob' }),
        decision({ repository: 'other/repo', fingerprint: 'f3' }),
        decision({ cluster: 'prod-us', fingerprint: 'f4' }),
      ]);
      // A later decision on the same item replaces the earlier one.
      await store.recordItemDecisions([
        decision({ fingerprint: 'f2', reason: 'not ours to keep', decidedAt: '2026-12-02T05:00:00Z' }),
      ]);
      await store.recordItemDecisions([]);
      const reopened = await reopen();
      const decided = await reopened.itemDecisions('acme/platform-gitops', 'prod-eu');
      expect(decided).toEqual([
        decision({}),
        decision({ fingerprint: 'f2', reason: 'not ours to keep', decidedAt: '2026-12-02T05:00:00Z' }),
      ]);
      expect(await reopened.itemDecisions('other/repo', 'prod-eu')).toEqual([
        decision({ repository: 'other/repo', fingerprint: 'f3' }),
      ]);
      expect(await reopened.itemDecisions('acme/platform-gitops', 'staging')).toEqual([]);
    });

    it('claims a comment once and counts the commands of a pull request', async () => {
      const claim = { repository: 'acme/platform-gitops', commentId: 77, pullRequest: 12, receivedMs: 1_000 };
      expect(await store.claimCommand(claim)).toBe(true);
      expect(await store.claimCommand({ ...claim, receivedMs: 2_000 })).toBe(false);
      expect(await store.claimCommand({ ...claim, repository: 'other/repo' })).toBe(true);
      expect(await store.claimCommand({ ...claim, commentId: 78, receivedMs: 5_000 })).toBe(true);
      expect(await store.claimCommand({ ...claim, commentId: 79, pullRequest: 13 })).toBe(true);
      expect(await store.commandsSince('acme/platform-gitops', 12, 0)).toBe(2);
      expect(await store.commandsSince('acme/platform-gitops', 12, 1_500)).toBe(1);
      expect(await (await reopen()).claimCommand(claim)).toBe(false);
      expect(await store.forgetCommands(2_000)).toBe(3);
      expect(await store.commandsSince('acme/platform-gitops', 12, 0)).toBe(1);
      expect(await store.claimCommand(claim)).toBe(true);
    });
  });

  describe('blob cache', () => {
    it('gets and puts blobs in batches, answering only for known shas', async () => {
      const blobs = new Map(Array.from({ length: 1200 }, (_, i) => [`sha${i}`, `kind: ConfigMap # ${i}\n`] as const));
      await store.putBlobs(blobs, 1_000);
      await store.putBlobs(new Map([['sha0', 'kind: ConfigMap # 0\n']]), 1_000);
      const found = await store.getBlobs([...blobs.keys(), 'unknown', 'sha0']);
      expect(found.size).toBe(1200);
      expect(found.get('sha1199')).toBe('kind: ConfigMap # 1199\n');
      expect(await store.getBlobs([])).toEqual(new Map());
    });

    it('evicts blobs unused since a time; a use (a put or a touch) keeps one', async () => {
      const HOUR = 3_600_000;
      const day = (n: number) => n * 24 * HOUR;
      await store.putBlobs(
        new Map([
          ['old', 'a'],
          ['touched', 'b'],
          ['again', 'c'],
        ]),
        day(1),
      );
      await store.putBlobs(new Map([['recent', 'd']]), day(8));
      await store.touchBlobs(['touched', 'unknown'], day(8));
      // Put again (the same content, fetched again): its last use moves, never back.
      await store.putBlobs(new Map([['again', 'c']]), day(8));
      await store.putBlobs(new Map([['again', 'c']]), day(2));
      // A touch within the hour of the last recorded use writes nothing (and keeps the later time).
      await store.touchBlobs(['recent'], day(8) - HOUR / 2);
      expect(await store.evictBlobs(day(7))).toBe(1);
      expect([...(await store.getBlobs(['old', 'touched', 'again', 'recent'])).keys()].sort()).toEqual([
        'again',
        'recent',
        'touched',
      ]);
      expect(await store.evictBlobs(day(8) + 1)).toBe(3);
      expect(await store.getBlobs(['recent'])).toEqual(new Map());
    });
  });

  describe('state', () => {
    const prodEu = { kind: 'cluster', repository: 'acme/platform-gitops', cluster: 'prod-eu' } as const;
    const conflict = {
      resource: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
      path: '/spec/replicas',
      manager: 'horizontal-pod-autoscaler',
    };

    it('keeps typed state per cluster, per repository and of the watch; a repository is one whatever its capitals', async () => {
      expect(await store.getState(prodEu)).toBeUndefined();
      await store.setState(prodEu, { lastReconcileAt: '2026-12-02T03:00:00Z', openPullRequests: [{ number: 7 }] });
      await store.setState(
        { kind: 'repository', repository: 'acme/platform-gitops' },
        { headSha: 'abc', headStale: false },
      );
      await store.setState({ kind: 'watch', repository: 'Acme/Platform-GitOps' }, { dashboard: 'f1' });
      await store.setState(
        { ...prodEu, repository: 'Acme/Platform-GitOps' },
        { conflicts: [conflict], openPullRequests: [{ number: 8 }] },
      );
      expect(await store.getState(prodEu)).toEqual({ conflicts: [conflict], openPullRequests: [{ number: 8 }] });
      expect(await store.getState({ kind: 'repository', repository: 'Acme/platform-gitops' })).toEqual({
        headSha: 'abc',
        headStale: false,
      });
      expect(await store.getState({ kind: 'watch', repository: 'acme/platform-gitops' })).toEqual({ dashboard: 'f1' });
      expect(await rows.get('acme/platform-gitops', 'prod-eu')).toEqual({
        value: { conflicts: [conflict], openPullRequests: [{ number: 8 }] },
        version: STATE_VERSION,
      });
    });

    it('refuses to write a state that does not match its schema, naming the field', async () => {
      const wrong = { openPullRequests: [{ number: '8' }] } as unknown as ClusterState;
      await expect(store.setState(prodEu, wrong)).rejects.toThrow(StateInvalidError);
      await expect(store.setState(prodEu, wrong)).rejects.toThrow(/openPullRequests\.0\.number/);
      expect(await store.getState(prodEu)).toBeUndefined();
    });

    it('migrates a version 1 row on read: the display string of a conflict becomes a key, fields nothing reads are dropped', async () => {
      const v1 = {
        lastReconcileAt: '2026-12-01T10:00:00Z',
        headSha: 'abc',
        openPullRequest: 12,
        drift: {
          byCause: { human: 1 },
          resources: 1,
          pending: 2,
          declined: 0,
          reported: [{ resource: 'ConfigMap/shop/settings', reason: 'not codified' }],
        },
        conflicts: [
          {
            resource: 'Deployment/shop/web',
            path: '/spec/replicas',
            manager: 'horizontal-pod-autoscaler',
            fix: 'remove it from Git',
          },
          {
            resource: 'Namespace/shop',
            path: '/metadata/labels',
            segments: ['metadata', 'labels'],
            manager: 'kube-controller',
            fix: 'ignore it',
          },
        ],
        openPullRequests: [{ number: 12, branch: 'driftback/prod-eu' }],
        branches: {
          'driftback/prod-eu': {
            branch: 'driftback/prod-eu',
            group: '',
            pullRequest: 12,
            pullRequestUrl: 'https://x',
            fingerprints: ['f'],
            appCommits: ['c1'],
          },
        },
      };
      await rows.put('acme/platform-gitops', 'prod-eu', JSON.stringify(v1));
      await rows.put(
        'acme/platform-gitops',
        '',
        JSON.stringify({ headSha: 'abc', configCheckedAt: '2026-12-01T10:00:00Z', configProblems: [] }),
      );
      const migrated = await store.getState(prodEu);
      expect(migrated).toEqual({
        lastReconcileAt: '2026-12-01T10:00:00Z',
        drift: { byCause: { human: 1 }, pending: 2 },
        conflicts: [
          {
            resource: { group: '', kind: 'Deployment', namespace: 'shop', name: 'web' },
            path: '/spec/replicas',
            manager: 'horizontal-pod-autoscaler',
          },
          {
            resource: { group: '', kind: 'Namespace', namespace: '', name: 'shop' },
            path: '/metadata/labels',
            segments: ['metadata', 'labels'],
            manager: 'kube-controller',
          },
        ],
        openPullRequests: [{ number: 12 }],
        branches: {
          'driftback/prod-eu': {
            branch: 'driftback/prod-eu',
            pullRequest: 12,
            fingerprints: ['f'],
            appCommits: ['c1'],
          },
        },
      });
      expect(await store.getState({ kind: 'repository', repository: 'acme/platform-gitops' })).toEqual({
        headSha: 'abc',
      });
      const notReconciling = {
        'prod-eu/flux-system/apps': { since: '2026-12-01T09:00:00Z', reason: 'is suspended', issue: 4 },
      };
      await rows.put('acme/platform-gitops', '~watch', JSON.stringify({ dashboard: 'f1', notReconciling }));
      expect(await store.getState({ kind: 'watch', repository: 'acme/platform-gitops' })).toEqual({
        dashboard: 'f1',
        notReconciling: {
          'prod-eu': [
            {
              reconciler: { namespace: 'flux-system', name: 'apps' },
              since: '2026-12-01T09:00:00Z',
              reason: 'is suspended',
              issue: 4,
            },
          ],
        },
      });
      // Written back, it is the current version.
      await store.setState(prodEu, migrated!);
      expect((await rows.get('acme/platform-gitops', 'prod-eu'))?.version).toBe(STATE_VERSION);
      expect(await store.getState(prodEu)).toEqual(migrated);
    });

    it('says which row and field do not parse, and refuses a row of a newer version', async () => {
      await rows.put(
        'acme/platform-gitops',
        'prod-eu',
        JSON.stringify({
          conflicts: [{ resource: { group: '', kind: 'Deployment', namespace: 'shop', name: 'web' }, manager: 'hpa' }],
        }),
        STATE_VERSION,
      );
      await expect(store.getState(prodEu)).rejects.toThrow(
        /acme\/platform-gitops cluster prod-eu .*conflicts\.0\.path/,
      );
      await rows.put('acme/platform-gitops', 'prod-us', JSON.stringify({}), STATE_VERSION + 1);
      await expect(store.getState({ ...prodEu, cluster: 'prod-us' })).rejects.toThrow(/newer driftback/);
    });
  });

  describe('migrations', () => {
    it('are applied once: reopening the database keeps the data', async () => {
      const result = await store.putSnapshot(makeSnapshot(), { digest: 'sha256:keep', receivedAt: received });
      const [a, b] = await Promise.all([reopen(), reopen()]);
      expect((await a.latestSnapshotMeta('acme/platform-gitops', 'prod-eu'))?.id).toBe(result.meta.id);
      await b.ping();
    });

    it('version 5 sorts a snapshot stored before it, captured after its receipt, at its receipt', async () => {
      const ahead = await store.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T03:10:00Z' }), {
        digest: 'sha256:ahead',
        receivedAt: '2026-12-02T03:06:00.250Z',
      });
      // As version 4 left it: sorted by its capture, the migration not yet applied.
      await execute(`UPDATE snapshots SET captured_ms = ${Date.parse('2026-12-02T03:10:00Z')}`);
      await execute('DELETE FROM migrations WHERE version = 5');
      const reopened = await reopen();
      // Captured a millisecond after the skewed one was received: newer, to the millisecond.
      const honest = await reopened.putSnapshot(makeSnapshot({ capturedAt: '2026-12-02T03:06:00.251Z' }), {
        digest: 'sha256:honest',
        receivedAt: '2026-12-02T03:07:01Z',
      });
      expect(ahead.type).toBe('stored');
      expect(honest.type).toBe('stored');
      expect((await reopened.latestSnapshotMeta('acme/platform-gitops', 'prod-eu'))?.id).toBe(honest.meta.id);
    });
  });
});
