// The App SIGKILLed in the middle of a reconcile (SQLite in DATA_DIR) and started again on the same
// directory: the stored snapshot survives, the job runs again, and the repository ends with
// exactly one drift PR whose branch is complete. The kill lands at a chosen GitHub call: the relay
// holds that call, so the process dies with it in flight and the stand-in never sees it.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startAppProcess, type AppProcess } from '../support/app-process.js';
import type { GitHubStandIn } from '../support/github/index.js';
import { tokenFor } from '../support/app.js';
import {
  CLUSTER,
  expectedBranchFiles,
  expectEveryRefWriteComplete,
  expectOneCorrectPullRequest,
  OWNER,
  pulls,
  REPO,
  repositoryFiles,
  REPOSITORY,
  scaledSnapshot,
  seededStandIn,
  upload,
} from './scenario.js';

let standIn: GitHubStandIn | undefined;
let processes: AppProcess[] = [];
let dataDir: string | undefined;

afterEach(async () => {
  for (const app of processes) await app.kill('SIGKILL');
  processes = [];
  await standIn?.close();
  standIn = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** Jobs left in the App's SQLite queue (read beside the running process, as WAL allows). */
function jobsLeft(directory: string): number {
  const db = new Database(join(directory, 'driftback.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const REF_WRITE = /^\/repos\/[^/]+\/[^/]+\/git\/refs/;
const OPEN_PULL = /^\/repos\/[^/]+\/[^/]+\/pulls$/;

describe('faults: the App killed mid-reconcile', () => {
  it.each([
    [
      'before the branch ref moves (tree and commit written)',
      (method: string, path: string) => (method === 'POST' || method === 'PATCH') && REF_WRITE.test(path),
    ],
    [
      'after the branch moved, before the PR is opened',
      (method: string, path: string) => method === 'POST' && OPEN_PULL.test(path),
    ],
  ])(
    'SIGKILL %s, restart on the same DATA_DIR: one correct PR, snapshot kept',
    async (_moment, killAt) => {
      const files = repositoryFiles();
      standIn = await seededStandIn(files);
      const mainBefore = standIn.headOf(OWNER, REPO, 'main');
      dataDir = mkdtempSync(join(tmpdir(), 'driftback-fault-kill-'));
      const first = await startAppProcess({ standIn, name: 'first', dataDir });
      processes.push(first);

      let reached!: () => void;
      const atKillPoint = new Promise<void>((resolve) => (reached = resolve));
      // Held forever: the process dies with this request in flight.
      first.relay.setGate((request) =>
        killAt(request.method, request.path.split('?')[0])
          ? (reached(), new Promise<void>(() => undefined))
          : undefined,
      );

      const snapshot = scaledSnapshot(files, CLUSTER, 5, '2026-12-02T03:05:00Z');
      const accepted = await upload(first.baseUrl, snapshot);
      expect(accepted.status, accepted.body).toBe(202);
      await atKillPoint;
      expect(await first.kill('SIGKILL')).toBe('SIGKILL');
      expect(pulls(standIn)).toHaveLength(0);

      const second = await startAppProcess({ standIn, name: 'second', dataDir });
      processes.push(second);
      await eventually(
        'the drift PR and an empty queue',
        () => (pulls(standIn!).length > 0 && jobsLeft(dataDir!) === 0 ? true : undefined),
        40_000,
      );

      const expected = expectedBranchFiles(files, CLUSTER, 5);
      expectOneCorrectPullRequest(standIn, CLUSTER, expected);
      expect(standIn.callsTo('POST /repos/{owner}/{repo}/pulls')).toBe(1);
      expectEveryRefWriteComplete(standIn, [first.relay, second.relay], new Map([[CLUSTER, [expected]]]));
      expect(standIn.headOf(OWNER, REPO, 'main')).toBe(mainBefore);

      // No lost snapshot: the restarted App still has it as the cluster's latest.
      const status = await fetch(`${second.baseUrl}/api/v1/clusters/${REPOSITORY}/${CLUSTER}`, {
        headers: { authorization: `Bearer ${tokenFor(REPOSITORY, CLUSTER)}` },
      });
      expect(status.status).toBe(200);
      const body = (await status.json()) as { latest: { id: string; capturedAt: string } | null };
      expect(body.latest).toMatchObject({
        id: (JSON.parse(accepted.body) as { id: string }).id,
        capturedAt: '2026-12-02T03:05:00Z',
      });
    },
    120_000,
  );
});
