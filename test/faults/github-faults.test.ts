// GitHub failing during a reconcile: 500s, 502s, the primary rate limit (403 with
// x-ratelimit-remaining: 0) and the secondary one (retry-after), answered by the stand-in to the
// App running as `npm start` runs it, with Probot's retry and throttling plugins on. Each fault is
// retried after a pause (never at once), a fault that outlasts the plugin's retries sends the job
// back to the queue, and the repository never sees a ref moved to an incomplete tree: in the end
// there is exactly one drift PR with the full branch.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startAppProcess, type AppProcess } from '../support/app-process.js';
import type { FaultKind, GitHubStandIn } from '../support/github/index.js';
import type { RelayedRequest } from '../support/github/relay.js';
import {
  CLUSTER,
  expectedBranchFiles,
  expectEveryRefWriteComplete,
  expectOneCorrectPullRequest,
  OWNER,
  REPO,
  repositoryFiles,
  scaledSnapshot,
  seededStandIn,
  upload,
} from './scenario.js';

let standIn: GitHubStandIn | undefined;
let app: AppProcess | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await app?.kill('SIGKILL');
  app = undefined;
  await standIn?.close();
  standIn = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

// The shortest pause any of the faults asks for: retry-after 1 s, the primary limit's reset plus
// one second, and the retry plugin's first backoff of 1 s. A little slack for timer granularity.
const MIN_PAUSE_MS = 950;

const FAULTS: Array<{ route: string; kind: FaultKind; times: number }> = [
  { route: 'POST /repos/{owner}/{repo}/git/trees', kind: 'server-error', times: 2 },
  { route: 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}', kind: 'bad-gateway', times: 2 },
  { route: 'POST /repos/{owner}/{repo}/git/commits', kind: 'rate-limit', times: 1 },
  // Probot's throttling options only log a 403 secondary limit: the reconcile fails after writing a
  // tree and a commit but before the ref, and the queue runs it again after its backoff.
  { route: 'POST /repos/{owner}/{repo}/git/refs', kind: 'secondary-rate-limit', times: 1 },
  { route: 'POST /repos/{owner}/{repo}/pulls', kind: 'secondary-rate-limit-429', times: 1 },
];

const FAULT_STATUSES = new Set([403, 429, 500, 502]);

/** For every faulted answer, the pause before the App sent the same request again. */
function pausesAfterFaults(
  requests: RelayedRequest[],
): Array<{ request: string; status: number; pauseMs: number | undefined }> {
  return requests.flatMap((request, index) => {
    if (request.status === undefined || !FAULT_STATUSES.has(request.status)) return [];
    const again = requests
      .slice(index + 1)
      .find((later) => later.method === request.method && later.path === request.path);
    return [
      {
        request: `${request.method} ${request.path}`,
        status: request.status,
        pauseMs: again ? again.at - request.at : undefined,
      },
    ];
  });
}

describe('faults: GitHub answering 5xx and rate limits during a reconcile', () => {
  it('retries each with a pause, writes nothing half-done, and ends with one correct PR', async () => {
    const files = repositoryFiles();
    standIn = await seededStandIn(files);
    const mainBefore = standIn.headOf(OWNER, REPO, 'main');
    dataDir = mkdtempSync(join(tmpdir(), 'driftback-fault-github-'));
    app = await startAppProcess({ standIn, name: 'app', dataDir });
    for (const fault of FAULTS) standIn.injectFault(fault);

    const accepted = await upload(app.baseUrl, scaledSnapshot(files, CLUSTER, 5, '2026-12-02T03:05:00Z'));
    expect(accepted.status, accepted.body).toBe(202);
    // The PR as the App saw it created (the stand-in's state changes before its answer is relayed).
    await eventually(
      'the drift PR',
      () => (app!.relay.matching('POST', /\/pulls$/).some((request) => request.status === 201) ? true : undefined),
      55_000,
    );

    expect(standIn.pendingFaults()).toBe(0);
    expect(standIn.calls().faults).toBe(FAULTS.reduce((sum, fault) => sum + fault.times, 0));
    const pauses = pausesAfterFaults(app.relay.requests);
    expect(pauses.map((pause) => pause.status).sort()).toEqual([403, 403, 429, 500, 500, 502, 502]);
    const timeline = app.relay.requests
      .map(
        (request) =>
          `+${request.at - app!.relay.requests[0].at} ms ${request.method} ${request.path.split('?')[0]} ${request.status ?? '-'}`,
      )
      .join('\n');
    for (const pause of pauses) {
      expect(pause.pauseMs, `${pause.request} answered ${pause.status} was not sent again:\n${timeline}`).toBeDefined();
      expect(
        pause.pauseMs!,
        `${pause.request} answered ${pause.status}, sent again after:\n${timeline}`,
      ).toBeGreaterThanOrEqual(MIN_PAUSE_MS);
    }

    const expected = expectedBranchFiles(files, CLUSTER, 5);
    expectOneCorrectPullRequest(standIn, CLUSTER, expected);
    expect(app.relay.matching('POST', /\/pulls$/).filter((request) => request.status === 201)).toHaveLength(1);
    expectEveryRefWriteComplete(standIn, [app.relay], new Map([[CLUSTER, [expected]]]));
    expect(standIn.headOf(OWNER, REPO, 'main')).toBe(mainBefore);
    expect(app.alive()).toBe(true);
  }, 120_000);
});
