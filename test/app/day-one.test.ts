// A new user's first day with the real App: the snapshot of a fresh kind cluster (Kubernetes 1.32: its
// APIService `v1.`, bootstrap RBAC with `:` names, kubeadm's and kind's objects, the agent's own) goes
// through the upload route as the agent sends it (gzip), is accepted whole (202, nothing skipped), and
// the reconcile proposes nothing: no drift branch, no pull request. Before, every such upload was
// refused with 400 and the agent exited 2. Fixture: test/fixtures/controllers/kind-day-one.
import { gzipSync } from 'node:zlib';
import { isReadRoute } from '../support/github/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { drain, postSnapshot, startAppHarness, uploadHeaders, type AppHarness } from '../support/app.js';
import { scenarioRepository, scenarioSnapshot } from '../support/controllers.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('day one on a fresh kind cluster', () => {
  it.each(['day-one', 'everything'])('%s: 202 with nothing skipped, and zero drift proposed', async (name) => {
    const snapshot = scenarioSnapshot('kind-day-one', name);
    const h = await startAppHarness({ owner: 'acme', repo: 'platform', files: scenarioRepository('kind-day-one') });
    harness = h;
    const headers = { ...uploadHeaders(snapshot.repository, snapshot.cluster), 'content-encoding': 'gzip' };
    const answer = await postSnapshot(h, gzipSync(JSON.stringify(snapshot)), headers);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ id: expect.anything(), status: 'queued' });
    await drain(h);
    const repo = h.standIn.state.repo(h.owner, h.repo);
    expect([...repo.issues.values()].filter((issue) => issue.pull)).toEqual([]);
    const routes = Object.keys(h.standIn.calls().byRoute);
    // The reconcile ran: it read the repository at HEAD, and wrote no branch, commit or pull request.
    expect(routes).toContain('GET /repos/{owner}/{repo}/git/trees/{tree_sha}');
    const writes = routes.filter((route) => !isReadRoute(route));
    expect(writes.filter((route) => /git\/(refs|commits|trees)|\/pulls/.test(route))).toEqual([]);
  });
});
