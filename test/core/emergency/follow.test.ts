// The emergency procedure as a pure step, one row per transition: the record, what the snapshot and
// GitHub show (the `emergency` controller scenario's snapshots, as Flux wrote them), the record after
// and the GitHub writes it decides, in order.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config/index.js';
import {
  followEmergency,
  followVerified,
  commitToCheck,
  renderChecklist,
  withChecklist,
  NOTHING_DONE,
  type EmergencyObservation,
  type EmergencyRecord,
} from '../../../src/core/emergency/index.js';
import { fromPointer, getAt, keyId, keyOf } from '../../../src/core/model/index.js';
import { evaluateDrift } from '../../../src/core/pipeline/index.js';
import {
  emergencyRepoFiles,
  emergencySnapshot,
  SCOPED_CONFIG,
  type EmergencySnapshotName,
} from '../../support/emergency-fixture.js';

const parsed = parseConfig(SCOPED_CONFIG);
if (!parsed.ok) throw new Error('config');
const config = parsed.config;
const kindDev = config.clusters!.find((c) => c.name === 'kind-dev')!;

/** The drift `flux-2-suspended` shows under the suspended Kustomization: memory 512Mi → 1Gi by kubectl-edit. */
function emergencyOf(name: EmergencySnapshotName) {
  const evaluated = evaluateDrift({
    config,
    files: emergencyRepoFiles(),
    history: [],
    declined: new Set<string>(),
    cluster: kindDev,
    snapshot: emergencySnapshot(name),
  });
  if (evaluated.type !== 'evaluated') throw new Error(evaluated.type);
  return evaluated.emergency.get('flux-system/apps')!;
}

const ID = 'flux-system/apps';
const MERGE = '9d9a3d545f04f5513e4260e9f24877672dfab10c';
const { suspension, changes } = emergencyOf('flux-2-suspended');
const DEPLOYMENT = keyId(changes[0]!.key);
const SERVICE = keyId({ group: '', kind: 'Service', namespace: 'podinfo', name: 'podinfo' });
const BODY = `## Emergency change\n\n${renderChecklist(NOTHING_DONE)}\n\nthe drift report`;

const opened: EmergencyRecord = {
  suspension,
  since: '2026-12-01T10:02:00Z',
  branch: 'driftback/kind-dev',
  pullRequest: 7,
  changes,
  checklist: NOTHING_DONE,
};

/** What a snapshot shows: its live objects, the PR as GitHub has it, and which resources drift. */
function seen(
  name: EmergencySnapshotName,
  over: Partial<Omit<EmergencyObservation, 'live'>> = {},
): EmergencyObservation {
  const snapshot = emergencySnapshot(name);
  return {
    cluster: 'kind-dev',
    capturedAt: snapshot.capturedAt,
    pull: { body: BODY },
    resumed: false,
    applied: false,
    live: new Map(snapshot.items.map((object) => [keyId(keyOf(object)), object])),
    drifted: new Set(),
    ...over,
  };
}

const ticked = (merged: boolean, resumed: boolean, applied: boolean, inSync: boolean) =>
  withChecklist(BODY, { merged, resumed, applied, inSync })!;

describe('followEmergency: one row per transition', () => {
  const merged = { body: BODY, mergeSha: MERGE };
  const rows: Array<{
    name: string;
    record: EmergencyRecord;
    observation: EmergencyObservation;
    after: Partial<EmergencyRecord>;
    writes: unknown[];
    events: string[];
  }> = [
    {
      name: 'open, still suspended: nothing to tick, nothing written',
      record: opened,
      observation: seen('flux-2b-still-suspended', { drifted: new Set([DEPLOYMENT]) }),
      after: { checklist: NOTHING_DONE },
      writes: [],
      events: [],
    },
    {
      name: 'open → merged: the merge commit is recorded and "merged" ticked',
      record: opened,
      observation: seen('flux-2b-still-suspended', { pull: merged }),
      after: { mergeSha: MERGE, checklist: { ...NOTHING_DONE, merged: true } },
      writes: [{ kind: 'pull.update', pullRequest: 7, body: ticked(true, false, false, false) }],
      events: ['ticked'],
    },
    {
      name: 'merged → resumed, applied and in sync: ticked, then "verified" commented once',
      record: { ...opened, mergeSha: MERGE, checklist: { ...NOTHING_DONE, merged: true } },
      observation: seen('flux-3-resumed-after-merge', {
        pull: { body: ticked(true, false, false, false), mergeSha: MERGE },
        resumed: true,
        applied: true,
      }),
      after: {
        outcome: 'verified',
        resumedAt: '2026-12-01T10:50:00Z',
        checklist: { merged: true, resumed: true, applied: true, inSync: true },
      },
      writes: [
        { kind: 'pull.update', pullRequest: 7, body: ticked(true, true, true, true) },
        {
          kind: 'comment.once',
          issue: 7,
          key: 'emergency/verified/kind-dev/flux-system/apps',
          body: `verified: cluster and Git agree at \`${MERGE}\``,
        },
      ],
      events: ['ticked', 'verified'],
    },
    {
      name: 'merged → resumed, not yet applied: resumed ticked, nothing called undone',
      record: { ...opened, mergeSha: MERGE, checklist: { ...NOTHING_DONE, merged: true } },
      observation: seen('flux-3b-resumed-without-merge', {
        pull: { body: ticked(true, false, false, false), mergeSha: MERGE },
        resumed: true,
      }),
      after: { checklist: { merged: true, resumed: true, applied: false, inSync: false } },
      writes: [{ kind: 'pull.update', pullRequest: 7, body: ticked(true, true, false, false) }],
      events: ['ticked'],
    },
    {
      name: 'applied with drift left on the fixed resource: applied, not in sync, not verified',
      record: { ...opened, mergeSha: MERGE, checklist: { merged: true, resumed: true, applied: false, inSync: false } },
      observation: seen('flux-3-resumed-after-merge', {
        pull: { body: ticked(true, true, false, false), mergeSha: MERGE },
        resumed: true,
        applied: true,
        drifted: new Set([DEPLOYMENT]),
      }),
      after: { checklist: { merged: true, resumed: true, applied: true, inSync: false } },
      writes: [{ kind: 'pull.update', pullRequest: 7, body: ticked(true, true, true, false) }],
      events: ['ticked'],
    },
    {
      name: 'applied, the fix holds, but another object of the source drifts: not in sync, not verified',
      record: { ...opened, mergeSha: MERGE, checklist: { merged: true, resumed: true, applied: false, inSync: false } },
      observation: seen('flux-3-resumed-after-merge', {
        pull: { body: ticked(true, true, false, false), mergeSha: MERGE },
        resumed: true,
        applied: true,
        drifted: new Set([SERVICE]),
        sourceObjects: new Set([DEPLOYMENT, SERVICE]),
      }),
      after: { checklist: { merged: true, resumed: true, applied: true, inSync: false } },
      writes: [{ kind: 'pull.update', pullRequest: 7, body: ticked(true, true, true, false) }],
      events: ['ticked'],
    },
    {
      name: 'resumed before the merge, the fix reverted: undone (the watch alerts), dated by the resume',
      record: opened,
      observation: seen('flux-3b-resumed-without-merge', { resumed: true, drifted: new Set([DEPLOYMENT]) }),
      after: {
        outcome: 'undone',
        resumedAt: '2026-12-01T10:50:00Z',
        checklist: { ...NOTHING_DONE, resumed: true },
      },
      writes: [{ kind: 'pull.update', pullRequest: 7, body: ticked(false, true, false, false) }],
      events: ['ticked', 'undone'],
    },
    {
      name: 'undone, still gone: stays undone, nothing written again',
      record: {
        ...opened,
        outcome: 'undone',
        resumedAt: '2026-12-01T10:30:00Z',
        checklist: { ...NOTHING_DONE, resumed: true },
      },
      observation: seen('flux-3b-resumed-without-merge', {
        pull: { body: ticked(false, true, false, false) },
        resumed: true,
        drifted: new Set([DEPLOYMENT]),
      }),
      after: { outcome: 'undone' },
      writes: [],
      events: [],
    },
    {
      name: 'undone → restored: the value is back and nothing drifts (the watch closes the alert)',
      record: {
        ...opened,
        outcome: 'undone',
        resumedAt: '2026-12-01T10:30:00Z',
        checklist: { ...NOTHING_DONE, resumed: true },
      },
      observation: seen('flux-3-resumed-after-merge', {
        pull: { body: ticked(false, true, false, false) },
        resumed: true,
      }),
      after: { outcome: undefined },
      writes: [],
      events: [],
    },
    {
      name: 'verified: done, nothing observed is acted on',
      record: {
        ...opened,
        mergeSha: MERGE,
        outcome: 'verified',
        checklist: { merged: true, resumed: true, applied: true, inSync: true },
      },
      observation: seen('flux-3b-resumed-without-merge', { resumed: true, drifted: new Set([DEPLOYMENT]) }),
      after: { outcome: 'verified' },
      writes: [],
      events: [],
    },
  ];

  it.each(rows)('$name', ({ record, observation, after, writes, events }) => {
    const step = followEmergency(ID, record, observation);
    const { outcome: before, ...kept } = record;
    const { outcome, ...changed } = after;
    expect(step.record).toMatchObject({ ...kept, ...changed });
    expect(step.record?.outcome).toBe('outcome' in after ? outcome : before);
    expect(step.actions).toEqual(writes);
    expect(step.events).toEqual(events);
  });

  it('a PR closed unmerged retires the record: nothing written, nothing asked again', () => {
    const step = followEmergency(
      ID,
      opened,
      seen('flux-2b-still-suspended', { pull: { body: BODY, closedUnmerged: true } }),
    );
    expect(step).toEqual({ record: undefined, actions: [], events: [] });
  });

  it('a PR closed because the controller reverted the fix after a resume: undone is still followed', () => {
    const observation = seen('flux-3b-resumed-without-merge', {
      pull: { body: BODY, closedUnmerged: true },
      resumed: true,
      drifted: new Set([DEPLOYMENT]),
    });
    const step = followEmergency(ID, opened, observation);
    expect(step.record?.outcome).toBe('undone');
    expect(step.events).toContain('undone');
    // Back in the cluster: restored (the watch closes the alert), and with its PR closed, retired the step after.
    const back = seen('flux-3-resumed-after-merge', { pull: { body: BODY, closedUnmerged: true }, resumed: true });
    const restored = followEmergency(ID, step.record!, back).record;
    expect(restored).toBeDefined();
    expect(restored?.outcome).toBeUndefined();
    expect(followEmergency(ID, restored!, back).record).toBeUndefined();
  });

  it('a PR someone rewrote without the checklist is not written, the record still moves on', () => {
    const step = followEmergency(
      ID,
      opened,
      seen('flux-2b-still-suspended', { pull: { body: 'rewritten', mergeSha: MERGE } }),
    );
    expect(step.actions).toEqual([]);
    expect(step.record?.checklist.merged).toBe(true);
  });
});

describe('commitToCheck: what GitHub is asked about the applied revision', () => {
  it('nothing before the resume; the merge commit, recorded or as GitHub shows it, after', () => {
    expect(commitToCheck(opened, { body: BODY, mergeSha: MERGE }, false)).toBeUndefined();
    expect(commitToCheck(opened, { body: BODY }, true)).toBeUndefined();
    expect(commitToCheck(opened, { body: BODY, mergeSha: MERGE }, true)).toBe(MERGE);
    expect(commitToCheck({ ...opened, mergeSha: MERGE }, { body: BODY }, true)).toBe(MERGE);
  });
});

describe('the emergency checklist', () => {
  it('is replaced in place, the rest of the body kept byte for byte', () => {
    const body = `## Emergency change\n\nbefore\n\n${renderChecklist(NOTHING_DONE)}\n\nafter: the drift report\n`;
    const next = withChecklist(body, { ...NOTHING_DONE, merged: true, resumed: true });
    expect(next).toBe(body.replace('- [ ] merged', '- [x] merged').replace('- [ ] resumed', '- [x] resumed'));
    expect(withChecklist(next!, NOTHING_DONE)).toBe(body);
  });

  it('leaves a body without a checklist alone', () => {
    expect(withChecklist('a pull request someone rewrote', NOTHING_DONE)).toBeUndefined();
  });
});

describe('followVerified: a verified fix followed for emergency.followFor', () => {
  const verified: EmergencyRecord = {
    ...opened,
    mergeSha: MERGE,
    outcome: 'verified',
    verifiedAt: '2026-12-01T10:50:00Z',
    checklist: { merged: true, resumed: true, applied: true, inSync: true },
  };
  const WEEK = 7 * 86400;
  const POINTER = changes[0]!.pointer;
  /** `name` captured at `at`; Git (after the merge) declares `git` for the memory limit. */
  function after(name: EmergencySnapshotName, at: string, git = '1Gi', followFor = WEEK) {
    const live = seen(name).live;
    const now = getAt(live.get(DEPLOYMENT)!, fromPointer(POINTER));
    const drift = now === git ? [] : [{ ...changes[0]!, path: POINTER, desired: git, live: now }];
    // The rollback in flux-3b was written by kustomize-controller (its managedFields entry, Apply at 10:45:04).
    const withWho = drift.map((c) => ({ ...c, manager: 'kustomize-controller', time: '2026-12-01T10:45:04Z' }));
    return {
      capturedAt: at,
      followFor,
      live,
      changes: new Map([[DEPLOYMENT, withWho as never]]),
    };
  }

  it('still held: followed on, nothing moved', () => {
    const next = followVerified(verified, after('flux-3-resumed-after-merge', '2026-12-02T10:00:00Z'));
    expect(next).toEqual(verified);
  });

  it('moved away while Git still declares the fix: the field, old and new value, who and when', () => {
    const next = followVerified(verified, after('flux-3b-resumed-without-merge', '2026-12-02T10:00:00Z'));
    expect(next?.moved).toEqual({
      at: '2026-12-02T10:00:00Z',
      fields: [
        {
          key: changes[0]!.key,
          field: 'spec.template.spec.containers[podinfod].resources.limits.memory',
          pointer: POINTER,
          from: '1Gi',
          to: '512Mi',
          manager: 'kustomize-controller',
          time: '2026-12-01T10:45:04Z',
        },
      ],
    });
    // Seen again later: still moved since the first time.
    const again = followVerified(next!, after('flux-3b-resumed-without-merge', '2026-12-03T10:00:00Z'));
    expect(again?.moved?.at).toBe('2026-12-02T10:00:00Z');
    // Back: nothing moved any more.
    const back = followVerified(again!, after('flux-3-resumed-after-merge', '2026-12-03T11:00:00Z'));
    expect(back?.moved).toBeUndefined();
    expect(back?.changes).toEqual(verified.changes);
  });

  it('Git changed the field: no longer followed there, nothing moved', () => {
    const next = followVerified(verified, after('flux-3b-resumed-without-merge', '2026-12-02T10:00:00Z', '512Mi'));
    expect(next?.moved).toBeUndefined();
    expect(next?.changes).toEqual([]);
    expect(next?.released).toEqual(['spec.template.spec.containers[podinfod].resources.limits.memory']);
  });

  it('retired once the window is over; a move seen within it is followed until it is settled', () => {
    expect(followVerified(verified, after('flux-3-resumed-after-merge', '2026-12-08T10:50:01Z'))).toBeUndefined();
    expect(
      followVerified(verified, after('flux-3-resumed-after-merge', '2026-12-01T12:00:00Z', '1Gi', 3600)),
    ).toBeUndefined();
    // A move first seen after the window is no longer followed.
    expect(followVerified(verified, after('flux-3b-resumed-without-merge', '2026-12-08T11:00:00Z'))).toBeUndefined();
    const moved = followVerified(verified, after('flux-3b-resumed-without-merge', '2026-12-08T10:00:00Z'));
    expect(followVerified(moved!, after('flux-3b-resumed-without-merge', '2026-12-09T10:00:00Z'))?.moved).toBeDefined();
  });

  it('followEmergency records when it verified (the window starts there)', () => {
    const step = followEmergency(
      ID,
      { ...opened, mergeSha: MERGE },
      seen('flux-3-resumed-after-merge', { pull: { body: BODY, mergeSha: MERGE }, resumed: true, applied: true }),
    );
    expect(step.record).toMatchObject({ outcome: 'verified', verifiedAt: '2026-12-01T10:50:00Z' });
  });
});
