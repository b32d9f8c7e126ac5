// End to end through Probot and the GitHub stand-in: a pull request webhook → the plan job → one
// sticky comment and one `driftback / plan` check run, compared with golden files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, CONFIG, deployment, FILES, kustomization, liveEdge, liveProd, SETTINGS, WEB } from './plan-scenario.js';
import {
  checkRunPayload,
  checkRunsFor,
  commentsOn,
  expectGolden,
  openPullRequest,
  proposePullRequest,
  pullRequestPayload,
  runWatch,
  sendWebhook,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';
import { sqliteOf } from '../support/sqlite-file.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(FILES);
  expect(await uploadSnapshot(h, 'prod', liveProd(), '2026-12-02T11:55:00Z')).toBe(202);
  expect(await uploadSnapshot(h, 'edge', liveEdge(), '2026-12-02T11:50:00Z')).toBe(202);
}, 60_000);
afterAll(async () => h?.close());

function checkRunText(run: ReturnType<typeof checkRunsFor>[number]): string {
  return `conclusion: ${run.conclusion}\ntitle: ${run.output.title}\n\n${run.output.summary}\n\nannotations:\n${JSON.stringify(run.annotations, null, 2)}\n`;
}

async function planOf(
  branch: string,
  files: Record<string, string | null>,
  options: { fork?: boolean; body?: string | null } = {},
) {
  const pull = await proposePullRequest(h, branch, files, options);
  return { ...pull, comments: commentsOn(h, pull.number), runs: checkRunsFor(h, pull.headSha) };
}

const WORKER = deployment('worker', 'registry.example/shop/worker:1.4.0', 1);

interface Scenario {
  name: string;
  files: Record<string, string | null>;
  conclusion: string;
  counts?: string;
  annotation?: { path: string; title: unknown };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'update-create-prune',
    files: {
      'clusters/prod/settings.yaml': SETTINGS.replace('LOG_LEVEL: info', 'LOG_LEVEL: debug'),
      'clusters/prod/worker.yaml': WORKER,
      'clusters/prod/legacy.yaml': null,
      'clusters/prod/kustomization.yaml': kustomization([
        'api.yaml',
        'web.yaml',
        'settings.yaml',
        'worker.yaml',
        'data.yaml',
      ]),
    },
    conclusion: 'success',
    counts: '1 to create, 1 to update, 1 to prune',
  },
  {
    name: 'delete-pvc',
    files: {
      'clusters/prod/data.yaml': null,
      'clusters/prod/kustomization.yaml': kustomization(['api.yaml', 'web.yaml', 'settings.yaml', 'legacy.yaml']),
    },
    // A prune that deletes data asks a person to look (plan.dataLossConclusion, default action_required).
    conclusion: 'action_required',
    counts: '0 to create, 0 to update, 1 to prune',
    annotation: {
      path: 'clusters/prod/kustomization.yaml',
      title: expect.stringMatching(/^Deletes data: PersistentVolumeClaim\/.* \(prod, prune-protected\)$/),
    },
  },
  {
    name: 'replicas-under-hpa',
    files: { 'clusters/prod/web.yaml': WEB.replace('  selector:', '  replicas: 3\n  selector:') },
    conclusion: 'neutral',
    annotation: {
      path: 'clusters/prod/web.yaml',
      title: expect.stringMatching(/^Two managers, one field: Deployment\/shop\/web \(prod, conflict\)$/),
    },
  },
  {
    name: 'reverts-hotfix',
    files: { 'clusters/edge/api.yaml': API.replace('api:1.4.0', 'api:1.5.0') },
    conclusion: 'neutral',
    counts: '0 to create, 1 to update, 0 to prune',
    annotation: {
      path: 'clusters/edge/api.yaml',
      title: expect.stringMatching(/^Reverts a live change: .* \(edge, reverts-live-change\)$/),
    },
  },
];

describe.each(SCENARIOS)('a pull request: $name', ({ name, files, conclusion, counts, annotation }) => {
  it('gets one plan comment and one check run with line annotations', async () => {
    const { comments, runs } = await planOf(`change/${name}`, files);
    expect(comments).toHaveLength(1);
    expect(runs).toHaveLength(1);
    expect(runs[0].conclusion).toBe(conclusion);
    if (counts) expect(runs[0].output.title).toContain(counts);
    if (annotation)
      expect(runs[0].annotations).toContainEqual(
        expect.objectContaining({ ...annotation, annotation_level: 'warning' }),
      );
    expectGolden(`${name}.comment.md`, comments[0]);
    expectGolden(`${name}.check.md`, checkRunText(runs[0]));
  });
});

describe('plan comments over the life of a pull request', () => {
  it('edits the one comment in place, skips an unchanged plan, and plans each new head once', async () => {
    const branch = 'change/life';
    const first = await planOf(branch, { 'clusters/prod/settings.yaml': SETTINGS.replace('info', 'warn') });
    expect(first.comments).toHaveLength(1);
    h.standIn.resetCalls();
    // The same head again (a re-delivered webhook): nothing is written.
    expect(await sendWebhook(h, 'pull_request', pullRequestPayload('synchronize', { ...first, branch }))).toBe(200);
    expect(h.standIn.calls().writes).toBe(0);
    // A new head: the comment is edited, a check run is made for the new commit.
    const headSha = h.standIn.pushCommit({
      owner: 'acme',
      repo: 'platform',
      branch,
      files: { 'clusters/prod/settings.yaml': SETTINGS.replace('info', 'error') },
    });
    expect(await sendWebhook(h, 'pull_request', pullRequestPayload('synchronize', { ...first, headSha, branch }))).toBe(
      200,
    );
    const comments = commentsOn(h, first.number);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toContain('error');
    expect(comments[0]).not.toContain('warn');
    expect(checkRunsFor(h, headSha)).toHaveLength(1);
    expect(h.standIn.callsTo('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}')).toBe(1);
    expect(h.standIn.callsTo('POST /repos/{owner}/{repo}/issues/{issue_number}/comments')).toBe(0);
  });

  it("never edits a fake plan the pull request's author posted with the App's marker: it posts its own", async () => {
    const branch = 'change/spoof';
    const pull = openPullRequest(h, branch, { 'clusters/prod/settings.yaml': SETTINGS.replace('info', 'spoofed') });
    const fake = 'No changes to any cluster.\n\n<!-- driftback:plan#1 hash:0123456789abcdef -->';
    h.standIn.addUser('ghp_mallory', 'mallory');
    const posted = await fetch(`${h.standIn.baseUrl}/repos/acme/platform/issues/${pull.number}/comments`, {
      method: 'POST',
      headers: { authorization: 'token ghp_mallory' },
      body: JSON.stringify({ body: fake }),
    });
    expect(posted.status).toBe(201);
    expect(await sendWebhook(h, 'pull_request', pullRequestPayload('opened', { ...pull, branch }))).toBe(200);
    const comments = commentsOn(h, pull.number);
    expect(comments).toHaveLength(2);
    expect(comments[0]).toBe(fake);
    expect(comments[1]).toContain('spoofed');
    const authors = [...h.standIn.state.repo('acme', 'platform').comments.values()]
      .filter((comment) => comment.issueNumber === pull.number)
      .map((comment) => comment.user);
    expect(authors).toEqual(['mallory', 'driftback[bot]']);
  });

  it('re-runs the check when GitHub asks with no pull request attached, finding it by head sha', async () => {
    const pull = await planOf('change/rerun', { 'clusters/prod/settings.yaml': SETTINGS.replace('info', 'trace') });
    const repo = h.standIn.state.repo('acme', 'platform');
    for (const run of checkRunsFor(h, pull.headSha)) repo.checkRuns.delete(run.id);
    expect(await sendWebhook(h, 'check_run', checkRunPayload(pull.headSha))).toBe(200);
    expect(checkRunsFor(h, pull.headSha)).toHaveLength(1);
    expect(commentsOn(h, pull.number)).toHaveLength(1);
  });

  it('leaves a pull request that touches no cluster path alone', async () => {
    const pull = await planOf('docs/only', { 'docs/README.md': '# Platform\n\nMore words.\n' });
    expect(pull.comments).toEqual([]);
    expect(pull.runs).toEqual([]);
  });

  it('plans a fork pull request with a null body from its head commit, writing only to the base repository', async () => {
    const pull = await planOf(
      'contributor-change',
      { 'clusters/prod/settings.yaml': SETTINGS.replace('info', 'fork') },
      { fork: true, body: null },
    );
    expect(pull.comments).toHaveLength(1);
    expect(pull.comments[0]).toContain('fork');
    expect(pull.runs.map((run) => run.conclusion)).toEqual(['success']);
  });

  it('fails the check with file and line when the pull request breaks the config', async () => {
    const pull = await planOf('change/config', {
      '.github/driftback.yml': 'clusters:\n  - name: prod\n    path: clusters/prod\n    staleAfter: soon\n',
    });
    expect(pull.runs).toHaveLength(1);
    expect(pull.runs[0].conclusion).toBe('failure');
    expect(pull.runs[0].annotations).toContainEqual(
      expect.objectContaining({ path: '.github/driftback.yml', start_line: 4, annotation_level: 'failure' }),
    );
    expect(pull.comments[0]).toContain('expected a duration like 30m');
  });

  it("an alias bomb in a pull request (1.15 MiB, a fork's too) fails the check with the reason; the App stays up and the job is done", async () => {
    // 300,000 scalars anchored once (1.15 MiB), then 12 lines of 9 aliases: yaml's maxAliasCount sees ~100
    // references; expanded it is ~32 million nodes (the file that ran the App out of memory).
    const anchor = `  a: &a [${Array.from({ length: 300_000 }, () => 'lol').join(',')}]`;
    const aliases = Array.from(
      { length: 12 },
      (_, i) => `  b${i}: [${Array.from({ length: 9 }, () => '*a').join(',')}]`,
    );
    const bomb = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  namespace: shop\ndata:\n${anchor}\n${aliases.join('\n')}\n`;
    expect(bomb.length).toBeGreaterThan(1.14 * 1024 * 1024);
    const pull = await planOf(
      'contributor-bomb',
      {
        'clusters/prod/bomb.yaml': bomb,
        'clusters/prod/kustomization.yaml': kustomization([
          'api.yaml',
          'web.yaml',
          'settings.yaml',
          'legacy.yaml',
          'data.yaml',
          'bomb.yaml',
        ]),
      },
      { fork: true },
    );
    expect(pull.runs).toHaveLength(1);
    expect(pull.runs[0].conclusion).toBe('failure');
    expect(pull.runs[0].output.summary).toMatch(
      /clusters\/prod\/bomb\.yaml:1: document 0: its aliases expand to more than 100,000 nodes beyond what is written/,
    );
    expect(pull.comments[0]).toContain('alias bomb');
    expect((await fetch(`${h.baseUrl}/ping`)).status).toBe(200);
    // Done, not retried: no job is left for it.
    expect(sqliteOf(h.app.store).prepare(`SELECT COUNT(*) AS n FROM jobs WHERE queue = 'plan'`).get()).toEqual({
      n: 0,
    });
  });

  it("is planned under the base branch's config: dropping plan.protect does not hide a data-loss warning", async () => {
    const unprotected = `${CONFIG}plan:\n  protect: []\n`;
    const pull = await planOf('change/unprotect', {
      '.github/driftback.yml': unprotected,
      'clusters/prod/data.yaml': null,
      'clusters/prod/kustomization.yaml': kustomization(['api.yaml', 'web.yaml', 'settings.yaml', 'legacy.yaml']),
    });
    expect(pull.runs.map((run) => run.conclusion)).toEqual(['action_required']);
    expect(pull.comments[0]).toContain('**Deletes data** `PersistentVolumeClaim/shop/data`');
    expect(pull.comments[0]).toContain('This plan uses the configuration of the base branch');
    expect(pull.comments[0]).toContain(
      '- plan.protect: removes PersistentVolumeClaim, CustomResourceDefinition, Namespace',
    );
    expect(pull.runs[0].output.text).toContain('plan.protect: removes PersistentVolumeClaim');
  });

  it("is planned under the base branch's config: a cluster pointed at the pull request's own directory renders nothing from it", async () => {
    const moved = CONFIG.replace('path: clusters/prod\n', 'path: attacker/dump\n');
    const pull = await planOf('change/repoint', {
      '.github/driftback.yml': moved,
      'attacker/dump/kustomization.yaml': 'resources:\n  - ../../clusters/prod\n',
    });
    const comment = pull.comments[0];
    expect(comment).toContain('- cluster prod, path: clusters/prod → attacker/dump');
    expect(comment).toMatch(/#### prod\n+\*\*0 to create, 0 to update, 0 to prune/);
    expect(comment).not.toContain('attacker/dump/');
  });

  it('says nothing is planned while the base branch has no config, and what the proposed one sets up', async () => {
    const fresh = await startHarness(
      Object.fromEntries(Object.entries(FILES).filter(([path]) => path !== '.github/driftback.yml')),
    );
    try {
      const pull = openPullRequest(fresh, 'setup', { '.github/driftback.yml': CONFIG });
      expect(await sendWebhook(fresh, 'pull_request', pullRequestPayload('opened', { ...pull, branch: 'setup' }))).toBe(
        200,
      );
      const [comment] = commentsOn(fresh, pull.number);
      expect(comment).toContain(
        'Nothing is planned: plans use the configuration of the base branch, and .github/driftback.yml on main is missing or invalid.',
      );
      expect(comment).toContain('- adds cluster prod (path clusters/prod)');
      expect(comment).toContain('- adds cluster edge (path clusters/edge)');
    } finally {
      await fresh.close();
    }
  });

  it('degrades a plan over the size budget into one short comment that still fits', async () => {
    const many = Array.from(
      { length: 600 },
      (_, i) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: generated-${String(i).padStart(4, '0')}\ndata:\n  payload: ${'x'.repeat(200)}\n`,
    ).join('---\n');
    const pull = await planOf('change/huge', {
      'clusters/prod/generated.yaml': many,
      'clusters/prod/kustomization.yaml': kustomization([
        'api.yaml',
        'web.yaml',
        'settings.yaml',
        'legacy.yaml',
        'data.yaml',
        'generated.yaml',
      ]),
    });
    expect(pull.comments).toHaveLength(1);
    expect(pull.comments[0].length).toBeLessThanOrEqual(65_536);
    expect(pull.runs[0].output.title).toContain('600 to create');
    expect(pull.comments[0]).toContain('left out to keep this comment short and within GitHub’s size limit');
    // One line stands for the 600 ConfigMaps of one file, their names a range: not a 600-line list.
    expect(pull.comments[0]).toContain(
      '- `+` create 600 ConfigMap objects (`shop/generated-0000` … `shop/generated-0599`) — declared in `clusters/prod/generated.yaml`',
    );
    expect(pull.comments[0].split('\n').length).toBeLessThanOrEqual(150);
    expectGolden('over-budget.comment.md', pull.comments[0]);
  });

  // Last: it moves the clock, which changes the commit shas the golden files above show.
  it('refreshes the plans of open pull requests when a new snapshot arrives', async () => {
    const pull = await planOf('change/refresh', { 'clusters/edge/api.yaml': API.replace('api:1.4.0', 'api:1.4.1') });
    expect(pull.comments[0]).toContain('Reverts a live change');
    // The hotfix was undone in the cluster: the plan no longer warns about reverting it.
    const live = liveEdge();
    (live[0].spec as Record<string, unknown>).replicas = 2;
    live[0].metadata.managedFields = live[0].metadata.managedFields!.filter(
      (entry) => entry.manager !== 'kubectl-scale',
    );
    h.clock.now = new Date('2026-12-02T12:10:00Z');
    expect(await uploadSnapshot(h, 'edge', live)).toBe(202);
    await runWatch(h);
    const comments = commentsOn(h, pull.number);
    expect(comments).toHaveLength(1);
    expect(comments[0]).not.toContain('Reverts a live change');
    expect(comments[0]).toContain('the snapshot taken 2026-12-02 12:10 UTC');
    expect(checkRunsFor(h, pull.headSha).at(-1)?.conclusion).toBe('success');
  });
});
