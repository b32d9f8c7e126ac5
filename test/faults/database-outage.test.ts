// The App's PostgreSQL database going away under it: every connection it holds is terminated
// (pg_terminate_backend, as a server restart does) and new ones are refused for a while. Uploads
// and status reads during the outage get a 503 that says what happened, the process stays up, and
// once the database is back uploads are accepted again and their reconcile updates the drift PR.
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { eventually, startAppProcess, type AppProcess } from '../support/app-process.js';
import type { GitHubStandIn } from '../support/github/index.js';
import { tokenFor } from '../support/app.js';
import { createScratchDatabase, type ScratchDatabase } from './postgres.js';
import {
  CLUSTER,
  branchOf,
  expectedBranchFiles,
  expectOneCorrectPullRequest,
  FRONTEND,
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
let app: AppProcess | undefined;
let database: ScratchDatabase | undefined;

afterEach(async () => {
  await app?.kill('SIGKILL');
  app = undefined;
  await standIn?.close();
  standIn = undefined;
  await database?.allowConnections(true).catch(() => undefined);
  await database?.drop();
  database = undefined;
});

async function clusterStatus(baseUrl: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${baseUrl}/api/v1/clusters/${REPOSITORY}/${CLUSTER}`, {
    headers: { authorization: `Bearer ${tokenFor(REPOSITORY, CLUSTER)}` },
  });
  return { status: response.status, body: await response.text() };
}

describe('faults: the database restarted under the App (PostgreSQL)', () => {
  it('answers 503 with a message while the database is away, stays up, and recovers', async () => {
    database = await createScratchDatabase();
    const files = repositoryFiles();
    standIn = await seededStandIn(files);
    const started = await startAppProcess({ standIn, name: 'app', databaseUrl: database.url });
    app = started;
    onTestFailed(() =>
      console.error(
        `the App (${started.alive() ? 'running' : 'exited'}) printed:\n${started.output().slice(-(Number(process.env.DRIFTBACK_FAULT_LOG_CHARS) || 8000))}`,
      ),
    );

    const first = await upload(app.baseUrl, scaledSnapshot(files, CLUSTER, 5, '2026-12-02T03:05:00Z'));
    expect(first.status, first.body).toBe(202);
    await eventually('the first drift PR', () => (pulls(standIn!).length > 0 ? true : undefined), 30_000);

    // A restart that is already over: the connections the App held are dead, the server is back.
    expect(await database.terminateConnections()).toBeGreaterThan(0);
    const statuses: number[] = [];
    await eventually(
      'an upload accepted right after the connections were cut',
      async () => {
        const response = await upload(app!.baseUrl, scaledSnapshot(files, CLUSTER, 5, '2026-12-02T03:10:00Z'));
        statuses.push(response.status);
        return response.status === 202 ? true : undefined;
      },
      20_000,
    );
    // At most a clean 503 on the way, never a 500 or a dropped connection.
    expect(statuses.filter((status) => status !== 503).slice(0, -1)).toEqual([]);

    // Now an outage that lasts: connections cut and new ones refused.
    await database.allowConnections(false);
    expect(await database.terminateConnections()).toBeGreaterThan(0);

    const during = scaledSnapshot(files, CLUSTER, 6, '2026-12-02T03:15:00Z');
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await upload(app.baseUrl, during);
      expect(refused.status, refused.body).toBe(503);
      expect((JSON.parse(refused.body) as { error: string }).error).toMatch(/database unavailable.*retry later/);
    }
    const statusDuring = await clusterStatus(app.baseUrl).catch((error: unknown) => {
      throw new Error(`the status route failed (${String(error)}); the App printed:\n${app!.output().slice(-6000)}`);
    });
    expect(statusDuring.status, statusDuring.body).toBe(503);
    expect(statusDuring.body).toMatch(/database unavailable/);
    expect(app.alive(), app.output().slice(-3000)).toBe(true);
    expect((await fetch(`${app.baseUrl}/ping`)).status).toBe(200);

    await database.allowConnections(true);
    // The agent retries, as the 503's retry-after asks: the pool reconnects on its own.
    const accepted = await eventually(
      'an upload accepted after the outage',
      async () => {
        const response = await upload(app!.baseUrl, during);
        return response.status === 202 ? response : undefined;
      },
      20_000,
    );
    expect(JSON.parse(accepted.body)).toMatchObject({ status: 'queued' });
    expect((await clusterStatus(app.baseUrl)).status).toBe(200);

    // The queue recovered too: the reconcile of the new snapshot updates the same PR.
    await eventually(
      'the drift branch at 6 replicas',
      () => (standIn!.readFile(OWNER, REPO, branchOf(CLUSTER), FRONTEND)?.includes('replicas: 6') ? true : undefined),
      30_000,
    );
    expectOneCorrectPullRequest(standIn, CLUSTER, expectedBranchFiles(files, CLUSTER, 6));
    expect(app.alive()).toBe(true);
  }, 120_000);
});
