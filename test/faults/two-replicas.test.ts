// Two App processes on one PostgreSQL database (graphile-worker shares the work), receiving
// concurrent uploads for one cluster while its reconcile is held mid-way at the stand-in: no second
// reconcile of that cluster starts on either process, uploads for another cluster are accepted and
// reconciled meanwhile, and each cluster ends with exactly one drift PR, on its newest snapshot.
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startAppProcess, type AppProcess } from '../support/app-process.js';
import type { GitHubStandIn } from '../support/github/index.js';
import type { RelayedRequest } from '../support/github/relay.js';
import { createScratchDatabase, type ScratchDatabase } from './postgres.js';
import {
  branchOf,
  expectedBranchFiles,
  expectEveryRefWriteComplete,
  expectOneCorrectPullRequest,
  OWNER,
  pulls,
  REPO,
  repositoryFiles,
  scaledSnapshot,
  seededStandIn,
  upload,
} from './scenario.js';

const BUSY = 'prod-eu';
const OTHER = 'staging';

let standIn: GitHubStandIn | undefined;
let processes: AppProcess[] = [];
let database: ScratchDatabase | undefined;

afterEach(async () => {
  await Promise.all(processes.map((app) => app.kill('SIGKILL')));
  processes = [];
  await standIn?.close();
  standIn = undefined;
  await database?.drop();
  database = undefined;
});

/** A createTree for `cluster`'s branch: the first write of its reconcile. */
const isTreeWriteFor = (cluster: string) => (request: RelayedRequest) =>
  request.method === 'POST' && /\/git\/trees$/.test(request.path) && request.body.includes(`clusters/${cluster}/`);

describe('faults: two App processes on one PostgreSQL database', () => {
  it('runs one reconcile at a time per cluster, opens one PR each, and never blocks another cluster', async () => {
    database = await createScratchDatabase();
    const files = repositoryFiles([BUSY, OTHER]);
    standIn = await seededStandIn(files);
    const mainBefore = standIn.headOf(OWNER, REPO, 'main');
    const [a, b] = await Promise.all([
      startAppProcess({ standIn, name: 'a', databaseUrl: database.url }),
      startAppProcess({ standIn, name: 'b', databaseUrl: database.url }),
    ]);
    processes.push(a, b);

    // The busy cluster's first reconcile stops at its tree write, on whichever process runs it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let heldAt: ((request: RelayedRequest) => void) | undefined;
    const firstHeld = new Promise<RelayedRequest>((resolve) => (heldAt = resolve));
    const held: RelayedRequest[] = [];
    for (const app of [a, b]) {
      app.relay.setGate((request) => {
        if (!isTreeWriteFor(BUSY)(request)) return undefined;
        held.push(request);
        heldAt?.(request);
        return released;
      });
    }

    // Concurrent uploads for the busy cluster, spread over both processes.
    const replicas = [5, 6, 7, 8];
    const answers = await Promise.all(
      replicas.map((count, index) =>
        upload([a, b][index % 2].baseUrl, scaledSnapshot(files, BUSY, count, `2026-12-02T03:0${index}:00Z`)),
      ),
    );
    // A snapshot older than one already stored may be refused as stale; the newest never is.
    for (const answer of answers) expect([202, 409], answer.body).toContain(answer.status);
    expect(answers.at(-1)!.status, answers.at(-1)!.body).toBe(202);
    const firstReconcile = await firstHeld;

    // Meanwhile another cluster: accepted by both processes and reconciled while the busy one waits.
    for (const [index, app] of [a, b].entries()) {
      const answer = await upload(app.baseUrl, scaledSnapshot(files, OTHER, 4, `2026-12-02T03:1${index}:00Z`));
      expect(answer.status, answer.body).toBe(202);
    }
    await eventually(
      `the ${OTHER} PR while ${BUSY} is held`,
      () => (pulls(standIn!).some((pull) => pull.pull?.head === branchOf(OTHER)) ? true : undefined),
      40_000,
    );
    // Still held, and no second reconcile of the busy cluster reached its write on either process.
    expect(held).toEqual([firstReconcile]);
    expect(pulls(standIn).filter((pull) => pull.pull?.head === branchOf(BUSY))).toHaveLength(0);

    release();
    await eventually(
      `the ${BUSY} branch on the newest snapshot and an empty queue`,
      async () => {
        if (!standIn!.headOf(OWNER, REPO, branchOf(BUSY))) return undefined;
        const onBranch = standIn!.readFile(OWNER, REPO, branchOf(BUSY), 'clusters/prod-eu/frontend-deployment.yaml');
        if (!onBranch?.includes('replicas: 8')) return undefined;
        const [{ left }] = await database!.query<{ left: number }>(
          'SELECT COUNT(*)::int AS left FROM graphile_worker.jobs WHERE task_identifier = $1',
          ['reconcile'],
        );
        const opened = [a, b].flatMap((app) =>
          app.relay.matching('POST', /\/pulls$/).filter((request) => request.status === 201),
        );
        return left === 0 && opened.length >= 2 ? true : undefined;
      },
      40_000,
    );

    expectOneCorrectPullRequest(standIn, BUSY, expectedBranchFiles(files, BUSY, 8));
    expectOneCorrectPullRequest(standIn, OTHER, expectedBranchFiles(files, OTHER, 4));
    const opened = [a, b].flatMap((app) =>
      app.relay.matching('POST', /\/pulls$/).filter((request) => request.status === 201),
    );
    expect(opened).toHaveLength(2);
    expectEveryRefWriteComplete(
      standIn,
      [a.relay, b.relay],
      new Map([
        [BUSY, replicas.map((count) => expectedBranchFiles(files, BUSY, count))],
        [OTHER, [expectedBranchFiles(files, OTHER, 4)]],
      ]),
    );
    expect(standIn.headOf(OWNER, REPO, 'main')).toBe(mainBefore);
    expect(a.alive() && b.alive()).toBe(true);
  }, 150_000);
});
