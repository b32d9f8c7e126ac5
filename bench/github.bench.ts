// GitHub economy: the requests each step of the App's work costs, counted per route by the GitHub
// stand-in (test/support/github) on loopback, through the real edge (src/github) and the App's own
// read and publish steps (loadRepositoryAt, publishDrift). The same steps done the naive way (the
// contents API: one GET per directory and per file, one PUT per changed file, the PR and comments
// rewritten every time) run against the same stand-in in the same run, and a table shows both and
// the ratio. Repository size: BENCH_GITHUB_RESOURCES generated resources (default 1,000 = 200
// manifest files in 50 directories).
import { parseConfig, type Config } from '../src/core/config/index.js';
import { keepRead, loadRepositoryAt, type LoadedRepository } from '../src/app/repository.js';
import { branchFor, type DriftGroup } from '../src/app/reconcile/evaluate.js';
import type { GitHubContext } from '../src/app/reconcile/github-context.js';
import { publishDrift } from '../src/app/reconcile/publish-drift.js';
import { pullRequestFace } from '../src/core/decide/index.js';
import type { BranchState } from '../src/app/reconcile/state.js';
import { createMetrics } from '../src/app/metrics.js';
import { reconcileCluster, type ReconcileDeps } from '../src/app/reconcile/index.js';
import { createIsolation } from '../src/app/isolation/index.js';
import { parseSnapshot } from '../src/core/model/index.js';
import { SqliteStore } from '../src/store/index.js';
import {
  createOctokit,
  hasStatus,
  memoryBlobCache,
  openOrUpdatePullRequest,
  readTreeFiles,
  upsertStickyComment,
  writeBranch,
  type GitHubClient,
} from '../src/github/index.js';
import { APP_LOGIN, GitHubStandIn, type CallCounts } from '../test/support/github/index.js';
import type { Router } from '../test/support/github/http-kit.js';
import type { StandInState } from '../test/support/github/state.js';
import { generateCluster, snapshotText, type GeneratedCluster } from './generate.js';
import { FILES, deployment, liveProd } from '../test/app/plan-scenario.js';
import {
  drain,
  openPullRequest,
  pullRequestPayload,
  runWatch,
  sendWebhook,
  startHarness,
  uploadSnapshot,
} from '../test/app/plan-harness.js';

/** The stand-in's App: id 1, acting as driftback[bot]. */
const APP = { appId: 1, login: APP_LOGIN };

const OWNER = 'acme';
const REPO = 'platform-gitops';
const CLUSTER = 'prod-eu';
const ROOT = `clusters/${CLUSTER}`;
const CONFIG_TEXT = `clusters:\n  - name: ${CLUSTER}\n    path: ${ROOT}\n`;
const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const resources = Number(process.env.BENCH_GITHUB_RESOURCES ?? 1000);

// ---- the stand-in, with the contents write the naive approach needs --------------------------

/**
 * The stand-in serves GET contents but not PUT contents, which only the naive approach uses. It is
 * added here as GitHub behaves: a commit of one file on the branch, 409 when `sha` is stale.
 */
function addContentsWrite(standIn: GitHubStandIn): void {
  const router = (standIn as unknown as { router: Router<StandInState> }).router;
  router.add('PUT', '/repos/{owner}/{repo}/contents/{path+}', (context) => {
    const { owner, repo, path } = context.params;
    const body = context.body as { content: string; sha?: string; branch?: string };
    const state = context.state.repo(owner, repo);
    const branch = body.branch ?? state.defaultBranch;
    const head = context.state.resolve(state, branch);
    const existing = head ? context.state.git.entryAt(context.state.git.commit(head)!.tree, path) : undefined;
    if (existing && existing.sha !== body.sha)
      return { status: 409, body: { message: `${path} does not match ${body.sha}` } };
    const commit = standIn.pushCommit({
      owner,
      repo,
      branch,
      files: { [path]: Buffer.from(body.content, 'base64').toString('utf8') },
      login: APP_LOGIN,
      message: `Update ${path}\n`,
    });
    const entry = context.state.git.entryAt(context.state.git.commit(commit)!.tree, path)!;
    return { status: existing ? 200 : 201, body: { content: { path, sha: entry.sha }, commit: { sha: commit } } };
  });
}

// ---- the naive approach: contents API per file ------------------------------------------------

/** Every file under `dir` read with the contents API: one GET per directory listing and per file. */
async function naiveReadTree(
  octokit: GitHubClient,
  ref: string,
  dir: string,
  files = new Map<string, string>(),
): Promise<Map<string, string>> {
  const { data } = await octokit.rest.repos.getContent({ owner: OWNER, repo: REPO, path: dir, ref });
  for (const item of Array.isArray(data) ? data : []) {
    if (item.type === 'dir') await naiveReadTree(octokit, ref, item.path, files);
    else if (item.type === 'file')
      files.set(item.path, await naiveReadFile(octokit, ref, item.path).then((file) => file!.text));
  }
  return files;
}

async function naiveReadFile(
  octokit: GitHubClient,
  ref: string,
  path: string,
): Promise<{ text: string; sha: string } | undefined> {
  try {
    const { data } = await octokit.rest.repos.getContent({ owner: OWNER, repo: REPO, path, ref });
    if (Array.isArray(data) || !('content' in data)) return undefined;
    return { text: Buffer.from(data.content, 'base64').toString('utf8'), sha: data.sha };
  } catch (error) {
    if (hasStatus(error, 404)) return undefined;
    throw error;
  }
}

/** The naive reconcile read: the config, then every manifest under the cluster's path. */
async function naiveReadRepository(octokit: GitHubClient): Promise<void> {
  await naiveReadFile(octokit, 'main', '.github/driftback.yml');
  await naiveReadTree(octokit, 'main', ROOT);
}

/**
 * The naive publish: the branch made from main when absent, each edited file read on the branch
 * and PUT when it differs (one commit per file), the PR found and its body rewritten every time.
 */
async function naivePublish(
  octokit: GitHubClient,
  branch: string,
  edits: Map<string, string>,
  body: string,
): Promise<void> {
  try {
    await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: `heads/${branch}` });
  } catch (error) {
    if (!hasStatus(error, 404)) throw error;
    const { data: main } = await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/main' });
    await octokit.rest.git.createRef({ owner: OWNER, repo: REPO, ref: `refs/heads/${branch}`, sha: main.object.sha });
  }
  for (const [path, text] of edits) {
    const current = await naiveReadFile(octokit, branch, path);
    if (current?.text === text) continue;
    await octokit.rest.repos.createOrUpdateFileContents({
      owner: OWNER,
      repo: REPO,
      path,
      branch,
      message: `Update ${path}`,
      content: Buffer.from(text).toString('base64'),
      ...(current ? { sha: current.sha } : {}),
    });
  }
  const { data: pulls } = await octokit.rest.pulls.list({
    owner: OWNER,
    repo: REPO,
    head: `${OWNER}:${branch}`,
    state: 'open',
  });
  if (pulls[0]) await octokit.rest.pulls.update({ owner: OWNER, repo: REPO, pull_number: pulls[0].number, body });
  else
    await octokit.rest.pulls.create({
      owner: OWNER,
      repo: REPO,
      head: branch,
      base: 'main',
      title: `naive: ${branch}`,
      body,
    });
}

// ---- the App's reconcile, end to end --------------------------------------------------------

const RECONCILED_REPO = 'reconciled';

/**
 * reconcileCluster (src/app/reconcile) on its own repository of the same manifests, with a SQLite
 * store in memory: the first run opens the drift PR, then the same snapshot again and a newer
 * snapshot with the same drift are counted. The gate is set to one snapshot so the first run codifies.
 */
async function realReconcile(
  standIn: GitHubStandIn,
  octokit: GitHubClient,
  cluster: GeneratedCluster,
  files: Map<string, string>,
): Promise<{ first: CallCounts; same: CallCounts; newer: CallCounts; outcomes: string[] }> {
  const configText = `${CONFIG_TEXT}drift:\n  minSnapshots: 1\n`;
  standIn.seedRepository({
    owner: OWNER,
    repo: RECONCILED_REPO,
    files: new Map([...files, ['.github/driftback.yml', configText]]),
  });
  const store = SqliteStore.open({ file: ':memory:' });
  const isolation = createIsolation();
  try {
    const repository = `${OWNER}/${RECONCILED_REPO}`;
    const put = async (capturedAt: string) => {
      const parsed = parseSnapshot({
        ...(JSON.parse(snapshotText(cluster)) as Record<string, unknown>),
        repository,
        cluster: CLUSTER,
        capturedAt,
      });
      if (!parsed.ok) throw new Error(`generated snapshot is invalid: ${JSON.stringify(parsed.problems.slice(0, 3))}`);
      await store.putSnapshot(parsed.value, { digest: `sha256:${capturedAt}`, receivedAt: capturedAt });
    };
    const deps: ReconcileDeps = {
      store,
      clients: { forRepository: async () => octokit, forget: () => {} },
      appIdentity: async () => APP,
      metrics: createMetrics(),
      now: () => new Date('2026-12-02T03:10:00Z'),
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      isolation,
    };
    const outcomes: string[] = [];
    const run = async () => {
      const outcome = await reconcileCluster(deps, { repository, cluster: CLUSTER });
      outcomes.push(
        `${outcome.type}${outcome.message ? ` (${outcome.message})` : ''}${outcome.events?.length ? ` [${outcome.events.map((e) => e.event).join(', ')}]` : ''}`,
      );
    };
    await put('2026-12-02T03:05:00Z');
    const first = await count(standIn, run);
    const same = await count(standIn, run);
    await put('2026-12-02T03:35:00Z');
    const newer = await count(standIn, run);
    return { first, same, newer, outcomes };
  } finally {
    await isolation.stop();
    await store.close();
  }
}

// ---- measuring ---------------------------------------------------------------------------------

interface Row {
  step: string;
  app: CallCounts;
  naive: CallCounts | undefined;
  note: string;
}

const rows: Row[] = [];
/** Each issue #8 target with the measured figure: `met` or what was measured instead. */
const targets: string[] = [];
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

async function count(standIn: GitHubStandIn, body: () => Promise<unknown>): Promise<CallCounts> {
  standIn.resetCalls();
  await body();
  return standIn.calls();
}

const BLOB_ROUTE = 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}';
const TARBALL_ROUTE = 'GET /repos/{owner}/{repo}/tarball/{ref}';
const CONTENTS_ROUTE = 'GET /repos/{owner}/{repo}/contents/{path}';

/** `edits` files of the cluster, each changed in a way `round` makes distinct. */
function editsOf(files: Map<string, string>, howMany: number, round: number): Map<string, string> {
  const paths = [...files.keys()].filter((path) => path.startsWith(`${ROOT}/`)).slice(0, howMany);
  return new Map(
    paths.map((path) => [
      path,
      files.get(path)!.replace(/replicas: (\d+)/, (_, n: string) => `replicas: ${Number(n) + round}`),
    ]),
  );
}

function bodyFor(edits: Map<string, string>, round: number): string {
  return `Codifies ${edits.size} live change(s) (round ${round}):\n\n${[...edits.keys()].map((path) => `- \`${path}\``).join('\n')}`;
}

function planParts(round: number): string[] {
  return [
    `### Plan for ${CLUSTER} (revision ${round})\n\n| action | count |\n|---|---|\n| update | ${round} |\n| prune | 15 |`,
  ];
}

function routeSummary(counts: CallCounts): string {
  const short = (route: string) =>
    route
      .replace(/\/repos\/\{owner\}\/\{repo\}$/, '/repos/…')
      .replace('/repos/{owner}/{repo}/', '/')
      .replace(/\{[a-z_+]+\}/g, '…');
  return Object.entries(counts.byRoute)
    .map(([route, n]) => `${short(route)}×${n}`)
    .join(', ');
}

const standIn = await GitHubStandIn.start();
addContentsWrite(standIn);
try {
  const cluster = generateCluster({ resources, seed: 42 });
  const files = new Map<string, string>([
    ['.github/driftback.yml', CONFIG_TEXT],
    ...[...cluster.files].map(([path, text]) => [`${ROOT}/${path}`, text] as const),
  ]);
  const headSha = standIn.seedRepository({ owner: OWNER, repo: REPO, files });
  const octokit = createOctokit({
    baseUrl: standIn.baseUrl,
    auth: 'ghs_app',
    backoffUnitMs: 5,
    writeSpacingMs: 0,
    retries: 3,
    log: QUIET,
  });
  const parsed = parseConfig(CONFIG_TEXT, '.github/driftback.yml');
  if (!parsed.ok) throw new Error(`bench config is invalid: ${JSON.stringify(parsed.problems)}`);
  const config: Config = parsed.config;
  const branch = branchFor(config, CLUSTER, undefined);
  const naiveBranch = `naive/${CLUSTER}`;
  const blobs = memoryBlobCache();
  const store = {
    getBlobs: (shas: string[]) => blobs.get(shas),
    putBlobs: (entries: Map<string, string>) => blobs.put(entries),
    touchBlobs: async () => {},
  };
  const manifestCount = cluster.files.size;

  // Reading the repository at HEAD: the first time (every blob fetched) and again at the same HEAD.
  let loaded!: LoadedRepository;
  // As a reconcile does: what the render read (here every manifest) is kept in the cache.
  const coldRead = await count(standIn, async () => {
    loaded = await loadRepositoryAt(octokit, { owner: OWNER, repo: REPO }, store);
    await keepRead(store, loaded, loaded.files.keys(), Date.now());
  });
  const naiveRead = await count(standIn, () => naiveReadRepository(octokit));
  rows.push({
    step: `read repository at HEAD, first time (${manifestCount} manifests)`,
    app: coldRead,
    naive: naiveRead,
    note: `blobs fetched: ${coldRead.byRoute[BLOB_ROUTE] ?? 0}, archives read: ${coldRead.byRoute[TARBALL_ROUTE] ?? 0}`,
  });
  targets.push(
    `first read of ${manifestCount} manifests: ${coldRead.total} calls (default branch and HEAD in one query, tree, archive; target at most 3: ${verdict(coldRead.total <= 3)})`,
  );
  const repeatRead = await count(standIn, () =>
    loadRepositoryAt(octokit, { owner: OWNER, repo: REPO, sha: headSha }, store),
  );
  const naiveRepeat = await count(standIn, () => naiveReadRepository(octokit));
  rows.push({
    step: 'read again at the same HEAD',
    app: repeatRead,
    naive: naiveRepeat,
    note: `blobs fetched: ${repeatRead.byRoute[BLOB_ROUTE] ?? 0} (naive contents GETs: ${naiveRepeat.byRoute[CONTENTS_ROUTE] ?? 0})`,
  });
  targets.push(
    `blob fetches on a repeat read at the same HEAD: ${repeatRead.byRoute[BLOB_ROUTE] ?? 0} (target 0: ${verdict((repeatRead.byRoute[BLOB_ROUTE] ?? 0) === 0)})`,
  );
  const treeOnly = await count(standIn, () =>
    readTreeFiles(octokit, { owner: OWNER, repo: REPO, commitSha: headSha, paths: [ROOT], blobCache: blobs }),
  );
  rows.push({ step: 'readTreeFiles alone, same HEAD', app: treeOnly, naive: undefined, note: routeSummary(treeOnly) });

  // Opening and updating the drift PR through the edge: one tree, one commit, one ref move per update.
  let lastWritten: { commitSha: string; treeSha: string } | undefined;
  let pullRequest = 0;
  const publish = async (edits: Map<string, string>, round: number) => {
    const written = await writeBranch(octokit, {
      owner: OWNER,
      repo: REPO,
      branch,
      prefix: config.pullRequests.branchPrefix,
      defaultBranch: 'main',
      baseCommitSha: headSha,
      files: edits,
      message: `codify round ${round}\n`,
      ...(lastWritten ? { expectedHeadSha: lastWritten.commitSha } : {}),
      ...(loaded.listing ? { baseTree: loaded.listing } : {}),
      ...(lastWritten ? { lastWritten } : {}),
    });
    if (written.type === 'head-moved' && written.actualHeadSha !== undefined)
      throw new Error(`${branch} moved under the bench`);
    if (written.type === 'written') lastWritten = { commitSha: written.commitSha, treeSha: written.treeSha };
    const pr = await openOrUpdatePullRequest(octokit, {
      owner: OWNER,
      repo: REPO,
      head: branch,
      base: 'main',
      title: `driftback: codify live changes in ${CLUSTER}`,
      body: bodyFor(edits, round),
      key: `drift/${branch}`,
      labels: config.pullRequests.labels,
      author: APP,
    });
    pullRequest = pr.number;
  };
  const opened = await count(standIn, () => publish(editsOf(files, 1, 1), 1));
  const naiveOpened = await count(standIn, () =>
    naivePublish(octokit, naiveBranch, editsOf(files, 1, 1), bodyFor(editsOf(files, 1, 1), 1)),
  );
  rows.push({ step: 'open the drift PR (1 file)', app: opened, naive: naiveOpened, note: routeSummary(opened) });
  const updates: CallCounts[] = [];
  for (const [howMany, round] of [
    [1, 2],
    [50, 3],
  ] as const) {
    const edits = editsOf(files, howMany, round);
    const app = await count(standIn, () => publish(edits, round));
    updates.push(app);
    const naive = await count(standIn, () => naivePublish(octokit, naiveBranch, edits, bodyFor(edits, round)));
    rows.push({
      step: `update the PR: ${edits.size} changed file${edits.size === 1 ? '' : 's'}`,
      app,
      naive,
      note: routeSummary(app),
    });
  }

  targets.push(
    `PR update, 1 vs ${editsOf(files, 50, 3).size} changed files: ${updates[0].total} vs ${updates[1].total} calls (target constant: ${verdict(updates[0].total === updates[1].total)})`,
  );

  // A reconcile whose drift has not changed, through the App's read and publish steps.
  const lastEdits = editsOf(files, 50, 3);
  const group = {
    namespace: undefined,
    branch,
    fingerprints: [],
    sources: [],
    result: {
      resources: [],
      summary: { inSync: 0, modified: 0, missing: 0, extra: 0, ignored: 0, conflicts: 0 },
      unlisted: [],
    },
    codify: { edits: lastEdits, codified: [], reported: [], check: { ok: true } },
  } satisfies DriftGroup;
  let previous: BranchState = {
    branch,
    pullRequest,
    fingerprints: [],
    appCommits: lastWritten ? [lastWritten.commitSha] : [],
    ...(lastWritten ? { lastWritten } : {}),
  };
  // As the App does: the default branch and the HEAD last read (or named by push webhooks since)
  // are trusted within the hour, and the render reads only what it read before (all cached).
  let remembered: { defaultBranch: string; trustedHead: { commitSha: string; treeSha: string } } | undefined;
  const reconcile = async () => {
    const repository = await loadRepositoryAt(
      octokit,
      { owner: OWNER, repo: REPO, ...remembered, fetch: () => false },
      store,
    );
    await keepRead(store, repository, repository.files.keys(), Date.parse('2026-12-02T03:10:00Z'));
    remembered = {
      defaultBranch: repository.defaultBranch,
      trustedHead: { commitSha: repository.headSha, treeSha: repository.treeSha },
    };
    const ctx: GitHubContext = {
      octokit,
      owner: OWNER,
      repo: REPO,
      defaultBranch: repository.defaultBranch,
      baseSha: repository.headSha,
      baseListing: repository.listing,
      config,
      cluster: CLUSTER,
      snapshot: { id: 'bench', capturedAt: '2026-12-02T03:05:00Z' },
      appLogin: APP_LOGIN,
      app: APP,
      now: () => new Date('2026-12-02T03:10:00Z'),
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    };
    const face = pullRequestFace(CLUSTER, config.pullRequests.labels, group);
    const result = await publishDrift(ctx, { group, ...face }, previous);
    if (result.type === 'declined' || result.type === 'foreign')
      throw new Error(`unexpected publish result ${result.type}`);
    previous = result.state;
  };
  // The first pass puts publishDrift's own PR body in place (the edge steps above wrote another).
  await reconcile();
  const unchanged = await count(standIn, reconcile);
  const naiveUnchanged = await count(standIn, async () => {
    await naiveReadRepository(octokit);
    await naivePublish(octokit, naiveBranch, lastEdits, bodyFor(lastEdits, 3));
  });
  rows.push({
    step: 'reconcile, drift unchanged (loadRepositoryAt + publishDrift)',
    app: unchanged,
    naive: naiveUnchanged,
    note: routeSummary(unchanged),
  });

  targets.push(
    `reconcile with unchanged drift, HEAD and drift PR known: ${unchanged.writes} writes, ${unchanged.reads} reads (target 0 calls: ${verdict(unchanged.total === 0)})`,
  );

  const real = await realReconcile(
    standIn,
    octokit,
    cluster,
    new Map([...files].filter(([path]) => path !== '.github/driftback.yml')),
  );
  rows.push({
    step: 'reconcileCluster: first run (opens the PR)',
    app: real.first,
    naive: undefined,
    note: `${real.outcomes[0]}: ${routeSummary(real.first)}`,
  });
  rows.push({
    step: 'reconcileCluster: same snapshot, same HEAD',
    app: real.same,
    naive: naiveUnchanged,
    note: `${real.outcomes[1]}: ${routeSummary(real.same)}`,
  });
  rows.push({
    step: 'reconcileCluster: newer snapshot, same drift',
    app: real.newer,
    naive: naiveUnchanged,
    note: `${real.outcomes[2]}: ${routeSummary(real.newer)}`,
  });
  targets.push(
    `reconcileCluster with unchanged drift (newer snapshot, outcome ${real.outcomes[2]}): ${real.newer.writes} writes, ${real.newer.reads} reads (target 0 calls: ${verdict(real.newer.total === 0)})`,
  );

  // The plan comment: refreshed with the same plan, and with a changed one.
  const naiveComment = (round: number) =>
    octokit.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: pullRequest,
      body: planParts(round)[0],
    });
  const sticky = (round: number) =>
    upsertStickyComment(octokit, {
      owner: OWNER,
      repo: REPO,
      issueNumber: pullRequest,
      key: `plan/${CLUSTER}`,
      parts: planParts(round),
      author: APP,
    });
  await sticky(1);
  const sameComment = await count(standIn, () => sticky(1));
  const naiveSame = await count(standIn, () => naiveComment(1));
  rows.push({
    step: 'plan comment refresh, plan unchanged',
    app: sameComment,
    naive: naiveSame,
    note: routeSummary(sameComment),
  });
  targets.push(
    `plan comment refresh with the same plan: ${sameComment.writes} writes, ${sameComment.reads} read (target 0 writes: ${verdict(sameComment.writes === 0)})`,
  );
  const changedComment = await count(standIn, () => sticky(2));
  const naiveChanged = await count(standIn, () => naiveComment(2));
  rows.push({
    step: 'plan comment refresh, plan changed',
    app: changedComment,
    naive: naiveChanged,
    note: routeSummary(changedComment),
  });
} finally {
  await standIn.close();
}

// The whole App on the stand-in: a snapshot whose live state is unchanged, its reconcile, the plan of
// an open pull request and the scheduled watch after it.
const whole = await startHarness(FILES, '2026-12-02T12:00:00Z');
try {
  await uploadSnapshot(whole, 'prod', liveProd(), '2026-12-02T12:00:00Z');
  await drain(whole);
  const pull = openPullRequest(whole, 'scale-api', {
    'clusters/prod/api.yaml': deployment('api', 'registry.example/shop/api:1.4.0', 3),
  });
  await sendWebhook(whole, 'pull_request', pullRequestPayload('opened', { ...pull, branch: 'scale-api' }));
  await drain(whole);
  await runWatch(whole);
  await drain(whole);
  whole.clock.now = new Date('2026-12-02T12:05:30Z');
  const unchangedApp = await count(whole.standIn, async () => {
    await uploadSnapshot(whole, 'prod', liveProd(), '2026-12-02T12:05:00Z');
    await drain(whole);
    await runWatch(whole);
    await drain(whole);
  });
  rows.push({
    step: "App: unchanged snapshot, its reconcile, the open PR's plan and the watch",
    app: unchangedApp,
    naive: undefined,
    note: routeSummary(unchangedApp),
  });
  targets.push(
    `App with an unchanged snapshot (upload, reconcile, plan, watch): ${unchangedApp.total} calls (target 0: ${verdict(unchangedApp.total === 0)})`,
  );
} finally {
  await whole.close();
}

const ratio = (app: number, naive: number | undefined) =>
  naive === undefined ? '–' : app === 0 ? (naive === 0 ? '1×' : `${naive}:0`) : `${(naive / app).toFixed(1)}×`;
const header = ['step', 'reads', 'writes', 'naive reads', 'naive writes', 'calls naive/App'];
const cells = rows.map((row) => [
  row.step,
  String(row.app.reads),
  String(row.app.writes),
  row.naive ? String(row.naive.reads) : '–',
  row.naive ? String(row.naive.writes) : '–',
  ratio(row.app.total, row.naive?.total),
]);
const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i].length)));
const line = (values: string[]) =>
  '| ' + values.map((value, i) => (i === 0 ? value.padEnd(widths[i]) : value.padStart(widths[i]))).join(' | ') + ' |';
console.log(
  `Repository: ${resources} resources in ${Math.ceil(resources / 5)} manifest files under ${ROOT} (50 directories), counted on the GitHub stand-in.\n`,
);
console.log(line(header));
console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
for (const row of cells) console.log(line(row));
console.log('\nRoutes the App called, per step:');
for (const row of rows) console.log(`- ${row.step}: ${row.note || '(none)'}`);
console.log('\nTargets:');
for (const target of targets) console.log(`- ${target}`);
console.log(
  '\nnaive = contents API: a GET per directory and per file, a GET + PUT per changed file (one commit each), the PR body and the plan comment rewritten every time.',
);
