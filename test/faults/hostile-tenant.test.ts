// One tenant can never stop the App. A hostile installation's pull requests (from a fork) hold a
// kustomize pattern that backtracking engines take hours on, one RE2 refuses, Argo CD directory files
// each under the render budget but over it together, a kustomization that patches quadratically, and
// one that needs more memory than a job has; its plan template nests inline partials 2^40 deep. Against
// the real App process: each ends with its message on the check run, the App stays up, another
// installation's upload is answered in under 5 s and its pull request gets its plan meanwhile, and the
// process's peak RSS stays under 1 GiB.
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../support/app-process.js';
import { WEBHOOK_SECRET } from '../support/app.js';
import { readFixture } from '../support/fixtures.js';
import type { GitHubStandIn } from '../support/github/index.js';
import { memoryHungryGenerator, nestedPartials, quadraticPatches, manyConfigMaps } from '../support/hostile.js';
import { appliedObjects, CLUSTER, gitopsRepository, snapshotOf } from '../app/live.js';
import { seededStandIn, upload, OWNER as GOOD_OWNER, REPO as GOOD_REPO, REPOSITORY as GOOD } from './scenario.js';

const EVIL_OWNER = 'mallory';
const EVIL_REPO = 'gitops';
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

const patchTarget = (name: string): string =>
  `resources: [cm.yaml]\npatches:\n  - target: {kind: ConfigMap, name: "${name}"}\n    patch: |\n      - op: add\n        path: /data/patched\n        value: "yes"\n`;

const under = (dir: string, files: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(files).map(([path, text]) => [`${dir}/${path}`, text]));

let standIn: GitHubStandIn;
let app: AppProcess;

beforeAll(async () => {
  standIn = await seededStandIn(gitopsRepository());
  standIn.seedRepository({ owner: EVIL_OWNER, repo: EVIL_REPO, files: EVIL_FILES });
  standIn.state.repo(EVIL_OWNER, EVIL_REPO).installationId = 2;
  app = await startAppProcess({
    standIn,
    name: 'hostile-tenant',
    env: {
      DRIFTBACK_JOB_TIME_LIMIT: '15',
      DRIFTBACK_TEMPLATE_TIME_LIMIT: '3',
      DRIFTBACK_JOB_MEMORY: '192',
      DRIFTBACK_RENDER_MAX_NODES: '100000',
    },
  });
  const snapshot = snapshotOf(GOOD, appliedObjects(gitopsRepository()), '2026-12-02T03:00:00Z');
  expect((await upload(app.baseUrl, snapshot)).status).toBe(202);
  for (const cluster of ['argo', 'kust'])
    expect((await upload(app.baseUrl, snapshotOf(EVIL, [], '2026-12-02T03:00:00Z', cluster))).status).toBe(202);
}, 120_000);

afterAll(async () => {
  await app?.kill('SIGTERM');
  await standIn?.close();
});

/** Opens a pull request (from a fork of `forkOwner`, when given) and sends its webhook to the App. */
async function openPullRequest(
  owner: string,
  repo: string,
  branch: string,
  files: Record<string, string>,
  forkOwner?: string,
): Promise<{ number: number; headSha: string }> {
  const headSha = standIn.pushCommit({ owner, repo, branch, files });
  const state = standIn.state.repo(owner, repo);
  const number = state.nextNumber++;
  const at = standIn.state.timestamp();
  const pull = { head: branch, base: 'main', draft: false, merged: false, ...(forkOwner ? { forkOwner } : {}) };
  state.issues.set(number, {
    ...{ number, title: branch, body: null, state: 'open', stateReason: null, labels: [], user: 'eve' },
    ...{ createdAt: at, updatedAt: at, closedAt: null, pull },
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
  expect(response.status).toBe(200);
  return { number, headSha };
}

/** The plan check run of a head commit, once the App has written it (polls; a loaded machine is slow). */
async function planCheck(owner: string, repo: string, headSha: string) {
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

function planComment(owner: string, repo: string, number: number): string {
  return [...standIn.state.repo(owner, repo).comments.values()].find((c) => c.issueNumber === number)?.body ?? '';
}

describe('a hostile tenant', () => {
  it('a pattern that backtracks for hours renders at once; its 2^40 plan template falls back with the reason', async () => {
    const pull = await openPullRequest(
      EVIL_OWNER,
      EVIL_REPO,
      'pattern',
      {
        'clusters/kust/kustomization.yaml': patchTarget('(a+)+b'),
      },
      'eve',
    );
    const run = await planCheck(EVIL_OWNER, EVIL_REPO, pull.headSha);
    expect(run.conclusion).not.toBe('failure');
    expect(planComment(EVIL_OWNER, EVIL_REPO, pull.number)).toContain(
      'could not be used (its partials nest deeper than 16 levels); this is the built-in template',
    );
  });

  it('a pattern RE2 refuses fails the check with the reason, as kustomize would', async () => {
    const pull = await openPullRequest(
      EVIL_OWNER,
      EVIL_REPO,
      'backreference',
      {
        'clusters/kust/kustomization.yaml': patchTarget('(a)\\\\1'),
      },
      'eve',
    );
    const run = await planCheck(EVIL_OWNER, EVIL_REPO, pull.headSha);
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain('error parsing regexp: invalid escape sequence');
  });

  it('while its renders hit each limit, another installation is answered in under 5 s and gets its plan', async () => {
    const wide = Object.fromEntries(['a', 'b', 'c'].map((f) => [`apps/web/${f}.yaml`, manyConfigMaps(f, 3_000)]));
    const hostile = [
      await openPullRequest(EVIL_OWNER, EVIL_REPO, 'many-files', wide, 'eve'),
      await openPullRequest(EVIL_OWNER, EVIL_REPO, 'quadratic', under('clusters/kust', quadraticPatches(2_000)), 'eve'),
      await openPullRequest(EVIL_OWNER, EVIL_REPO, 'memory', under('clusters/kust', memoryHungryGenerator(100)), 'eve'),
    ];
    // Meanwhile: another installation's upload, and its pull request.
    const started = Date.now();
    const snapshot = snapshotOf(GOOD, appliedObjects(gitopsRepository()), '2026-12-02T03:05:00Z');
    expect((await upload(app.baseUrl, snapshot)).status).toBe(202);
    expect(Date.now() - started).toBeLessThan(5_000);
    const frontend = `clusters/${CLUSTER}/frontend-deployment.yaml`;
    const good = await openPullRequest(GOOD_OWNER, GOOD_REPO, 'scale-frontend', {
      [frontend]: gitopsRepository()[frontend]!.replace(/replicas: \d+/, 'replicas: 7'),
    });
    const goodRun = await planCheck(GOOD_OWNER, GOOD_REPO, good.headSha);
    expect(goodRun.conclusion).not.toBe('failure');
    expect(goodRun.output.summary).toMatch(/1 to update/);

    const [files, quadratic, memory] = await Promise.all(
      hostile.map((pull) => planCheck(EVIL_OWNER, EVIL_REPO, pull.headSha)),
    );
    expect(files!.output.summary).toContain('the files this job reads hold more than 100,000 YAML nodes, its budget');
    expect(quadratic!.output.summary).toContain('render stopped after 15 s, the time limit of one job');
    expect(memory!.output.summary).toContain(
      'render stopped: it needed more than 192 MiB of memory, the limit of one job',
    );
    for (const run of [files, quadratic, memory]) expect(run!.conclusion).toBe('failure');

    expect((await fetch(`${app.baseUrl}/ping`)).status).toBe(200);
    expect(app.peakRssBytes()).toBeLessThan(1024 * 1024 * 1024);
  });
});
