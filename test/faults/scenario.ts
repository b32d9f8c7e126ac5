// What the fault tests share: a GitOps repository on the stand-in, snapshots uploaded to an App
// process over HTTP, and the checks that a drift PR came out right — exactly one, with its branch
// holding the default branch's files plus the codified change, and every ref the App ever wrote
// pointing at such a complete tree (nothing half-written).
import { expect } from 'vitest';
import { GitHubStandIn } from '../support/github/index.js';
import type { StandInRelay } from '../support/github/relay.js';
import { uploadHeaders } from '../support/app.js';
import {
  appliedObjects,
  CLUSTER,
  CLUSTER_PATH,
  configText,
  gitopsRepository,
  scaled,
  snapshotOf,
} from '../app/live.js';

export const OWNER = 'acme';
export const REPO = 'platform-gitops';
export const REPOSITORY = `${OWNER}/${REPO}`;
export const FRONTEND = `${CLUSTER_PATH}/frontend-deployment.yaml`;
export { CLUSTER };

export const branchOf = (cluster: string): string => `driftback/${cluster}`;

/** The guestbook repository; `clusters` adds more clusters with the same manifests at their own path. */
export function repositoryFiles(clusters: string[] = [CLUSTER]): Record<string, string> {
  const base = gitopsRepository();
  if (clusters.length === 1 && clusters[0] === CLUSTER) return base;
  const files: Record<string, string> = { 'README.md': base['README.md'] };
  const listed = clusters
    .map((name) => `  - name: ${name}\n    path: clusters/${name}\n    defaultNamespace: shop\n`)
    .join('');
  files['.github/driftback.yml'] = configText().replace(/clusters:\n(?: {2}.*\n| {4}.*\n)+/, `clusters:\n${listed}`);
  for (const name of clusters) {
    for (const [path, text] of Object.entries(base))
      if (path.startsWith(`${CLUSTER_PATH}/`)) files[path.replace(CLUSTER_PATH, `clusters/${name}`)] = text;
  }
  return files;
}

export async function seededStandIn(files: Record<string, string>): Promise<GitHubStandIn> {
  const standIn = await GitHubStandIn.start();
  standIn.seedRepository({ owner: OWNER, repo: REPO, files });
  return standIn;
}

/** The cluster as the applier left it, then `kubectl scale deployment/frontend --replicas=<n>`. */
export function scaledSnapshot(files: Record<string, string>, cluster: string, replicas: number, capturedAt: string) {
  const root = `clusters/${cluster}`;
  return snapshotOf(REPOSITORY, scaled(appliedObjects(files, root), 'frontend', replicas), capturedAt, cluster);
}

export interface Upload {
  status: number;
  body: string;
}

export async function upload(baseUrl: string, snapshot: { repository: string; cluster: string }): Promise<Upload> {
  const response = await fetch(`${baseUrl}/api/v1/snapshots`, {
    method: 'POST',
    body: JSON.stringify(snapshot),
    headers: uploadHeaders(snapshot.repository, snapshot.cluster),
  });
  return { status: response.status, body: await response.text() };
}

export function pulls(standIn: GitHubStandIn) {
  return [...standIn.state.repo(OWNER, REPO).issues.values()].filter((issue) => issue.pull);
}

/** The files the drift branch must hold: the default branch's, with frontend at `replicas`. */
export function expectedBranchFiles(
  files: Record<string, string>,
  cluster: string,
  replicas: number,
): Map<string, string> {
  const path = `clusters/${cluster}/frontend-deployment.yaml`;
  const expected = new Map(Object.entries(files));
  expected.set(path, files[path].replace(/replicas: \d+/, `replicas: ${replicas}`));
  return expected;
}

/** Exactly one open drift PR for `cluster`, whose branch holds exactly `expected`. */
export function expectOneCorrectPullRequest(
  standIn: GitHubStandIn,
  cluster: string,
  expected: Map<string, string>,
): void {
  const forCluster = pulls(standIn).filter((pull) => pull.pull?.head === branchOf(cluster));
  expect(forCluster, `drift PRs for ${cluster}`).toHaveLength(1);
  expect(forCluster[0].state).toBe('open');
  expect(forCluster[0].body).toContain('kubectl-scale');
  expect(Object.fromEntries(standIn.readFiles(OWNER, REPO, branchOf(cluster)))).toEqual(Object.fromEntries(expected));
}

/** Every ref write the App sent (create or move), with the sha it asked for. */
export function refWrites(relays: StandInRelay[]): Array<{ ref: string; sha: string }> {
  const writes: Array<{ ref: string; sha: string }> = [];
  for (const relay of relays) {
    for (const request of relay.requests) {
      const path = request.path.split('?')[0];
      if (request.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/git\/refs$/.test(path)) {
        const body = JSON.parse(request.body) as { ref: string; sha: string };
        writes.push({ ref: body.ref, sha: body.sha });
      } else if (request.method === 'PATCH' && /^\/repos\/[^/]+\/[^/]+\/git\/refs\//.test(path)) {
        const body = JSON.parse(request.body) as { sha: string };
        writes.push({
          ref: `refs/${decodeURIComponent(path.replace(/^\/repos\/[^/]+\/[^/]+\/git\/refs\//, ''))}`,
          sha: body.sha,
        });
      }
    }
  }
  return writes;
}

/**
 * Nothing half-written: every ref the App moved is a drift branch (never the default branch), and
 * points at a commit whose tree is complete — the default branch's files with one of the edits
 * allowed for that branch's cluster, byte for byte.
 */
export function expectEveryRefWriteComplete(
  standIn: GitHubStandIn,
  relays: StandInRelay[],
  allowed: Map<string, Array<Map<string, string>>>,
): void {
  const writes = refWrites(relays);
  expect(writes.length, 'ref writes').toBeGreaterThan(0);
  for (const write of writes) {
    expect(write.ref).not.toBe('refs/heads/main');
    const cluster = write.ref.replace('refs/heads/driftback/', '');
    const candidates = allowed.get(cluster);
    expect(candidates, `a ref write to ${write.ref}, which no cluster of the test owns`).toBeDefined();
    const tree = Object.fromEntries(standIn.readFiles(OWNER, REPO, write.sha));
    const complete = candidates!.some(
      (expected) =>
        JSON.stringify(Object.fromEntries([...expected].sort())) ===
        JSON.stringify(Object.fromEntries(Object.entries(tree).sort())),
    );
    if (!complete)
      expect(tree, `the tree of ${write.sha.slice(0, 7)} written to ${write.ref}`).toEqual(
        Object.fromEntries(candidates![0]),
      );
  }
}
