// A hostile installation next to a good one, against the real App process: the hostile one's
// repository and the helpers that open its pull requests (from a fork) and wait for their plans.
// Shared by the hostile-tenant test and its benchmark.
import { createHmac, randomUUID } from 'node:crypto';
import { startAppProcess, type AppProcess } from '../support/app-process.js';
import { WEBHOOK_SECRET } from '../support/app.js';
import { readFixture } from '../support/fixtures.js';
import type { GitHubStandIn } from '../support/github/index.js';
import { nestedPartials, manyConfigMaps } from '../support/hostile.js';
import { appliedObjects, gitopsRepository, snapshotOf } from '../app/live.js';
import { seededStandIn, upload, REPOSITORY as GOOD } from './scenario.js';

export const EVIL_OWNER = 'mallory';
export const EVIL_REPO = 'gitops';
const EVIL = `${EVIL_OWNER}/${EVIL_REPO}`;
const LONG_NAME = 'a'.repeat(44);
const EVIL_FILES: Record<string, string> = {
  '.github/driftback.yml':
    'clusters:\n  - name: argo\n    path: clusters/argo\n    defaultNamespace: web\n  - name: kust\n    path: clusters/kust\n    defaultNamespace: web\n',
  '.github/driftback/templates/plan-comment.hbs': nestedPartials(40, 2, 'x'),
  'clusters/argo/app.yaml': [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata: {name: web, namespace: argocd}',
    'spec:',
    `  source: {repoURL: "https://github.com/${EVIL}.git", path: apps/web}`,
    '  destination: {namespace: web}',
    '',
  ].join('\n'),
  'apps/web/base.yaml': manyConfigMaps('base', 1),
  'clusters/kust/kustomization.yaml': 'resources: [cm.yaml]\n',
  'clusters/kust/cm.yaml': manyConfigMaps(LONG_NAME, 1).replace(`${LONG_NAME}-0`, LONG_NAME),
};

export const patchTarget = (name: string): string =>
  `resources: [cm.yaml]\npatches:\n  - target: {kind: ConfigMap, name: "${name}"}\n    patch: |\n      - op: add\n        path: /data/patched\n        value: "yes"\n`;

export const under = (dir: string, files: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(files).map(([path, text]) => [`${dir}/${path}`, text]));

export interface HostileScenario {
  standIn: GitHubStandIn;
  app: AppProcess;
  /** Opens a pull request (from a fork of `forkOwner`, when given) and sends its webhook to the App. */
  openPullRequest(
    owner: string,
    repo: string,
    branch: string,
    files: Record<string, string>,
    forkOwner?: string,
  ): Promise<{ number: number; headSha: string }>;
  planCheck: (owner: string, repo: string, headSha: string) => ReturnType<typeof planCheck>;
  planComment: (owner: string, repo: string, number: number) => string;
  close(): Promise<void>;
}

/** The stand-in with both installations, the App process under tight limits, each cluster's first snapshot. */
export async function startHostileScenario(): Promise<HostileScenario> {
  const standIn = await seededStandIn(gitopsRepository());
  standIn.seedRepository({ owner: EVIL_OWNER, repo: EVIL_REPO, files: EVIL_FILES });
  standIn.state.repo(EVIL_OWNER, EVIL_REPO).installationId = 2;
  const app = await startAppProcess({
    standIn,
    name: 'hostile-tenant',
    env: {
      DRIFTBACK_JOB_TIME_LIMIT: '15',
      DRIFTBACK_TEMPLATE_TIME_LIMIT: '3',
      DRIFTBACK_JOB_MEMORY: '192',
      DRIFTBACK_RENDER_MAX_NODES: '100000',
    },
  });
  const accepted = async (snapshot: { repository: string; cluster: string }) => {
    const status = (await upload(app.baseUrl, snapshot)).status;
    if (status !== 202) throw new Error(`the upload was answered ${status}, not 202`);
  };
  await accepted(snapshotOf(GOOD, appliedObjects(gitopsRepository()), '2026-12-02T03:00:00Z'));
  for (const cluster of ['argo', 'kust']) await accepted(snapshotOf(EVIL, [], '2026-12-02T03:00:00Z', cluster));
  const scenario = { standIn, app };
  return {
    ...scenario,
    openPullRequest: (...args) => openPullRequest(scenario, ...args),
    planCheck: (owner, repo, headSha) => planCheck(scenario, owner, repo, headSha),
    planComment: (owner, repo, number) => planComment(standIn, owner, repo, number),
    async close() {
      await app.kill('SIGTERM');
      await standIn.close();
    },
  };
}

/** Opens a pull request (from a fork of `forkOwner`, when given) and sends its webhook to the App. */
async function openPullRequest(
  { standIn, app }: { standIn: GitHubStandIn; app: AppProcess },
  owner: string,
  repo: string,
  branch: string,
  files: Record<string, string>,
  forkOwner?: string,
): Promise<{ number: number; headSha: string }> {
  const headSha = standIn.pushCommit({ owner, repo, branch, files });
  const state = standIn.state.repo(owner, repo);
  const number = standIn.openPullRequest({
    owner,
    repo,
    branch,
    title: branch,
    login: 'eve',
    ...(forkOwner ? { forkOwner } : {}),
  });
  const payload = JSON.parse(readFixture('webhooks', 'octokit', 'pull_request', 'opened.payload.json'));
  const repository = { ...payload.repository, name: repo, full_name: `${owner}/${repo}`, owner: { login: owner } };
  payload.number = number;
  payload.repository = repository;
  payload.installation = { id: state.installationId, node_id: `I_${state.installationId}` };
  payload.pull_request = {
    ...payload.pull_request,
    number,
    draft: false,
    head: { ...payload.pull_request.head, ref: branch, sha: headSha, repo: repository },
    base: { ...payload.pull_request.base, ref: 'main', repo: repository },
  };
  const body = JSON.stringify(payload);
  const response = await fetch(`${app.baseUrl}/api/github/webhooks`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': 'sha256=' + createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex'),
    },
  });
  if (response.status !== 200) throw new Error(`the webhook was answered ${response.status}, not 200`);
  return { number, headSha };
}

/** The plan check run of a head commit, once the App has written it (polls; a loaded machine is slow). */
async function planCheck(
  { standIn, app }: { standIn: GitHubStandIn; app: AppProcess },
  owner: string,
  repo: string,
  headSha: string,
) {
  const deadline = Date.now() + 150_000;
  for (;;) {
    const run = [...standIn.state.repo(owner, repo).checkRuns.values()].find(
      (r) => r.headSha === headSha && r.name === 'driftback / plan' && r.conclusion,
    );
    if (run) return run;
    if (Date.now() > deadline || !app.alive()) throw new Error(`no plan for ${headSha}:\n${app.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function planComment(standIn: GitHubStandIn, owner: string, repo: string, number: number): string {
  return [...standIn.state.repo(owner, repo).comments.values()].find((c) => c.issueNumber === number)?.body ?? '';
}
