import { afterEach, describe, expect, it } from 'vitest';
import { createOrUpdateCheckRun, type CheckAnnotation, type CheckRunContent } from '../../src/github/index.js';
import { OWNER, REPO, startHarness, type Harness } from './harness.js';

const annotations = (count: number): CheckAnnotation[] =>
  Array.from({ length: count }, (_, index) => ({
    path: 'clusters/prod-eu/pvc.yaml',
    start_line: index + 1,
    end_line: index + 1,
    annotation_level: 'warning',
    message: `warning ${index}`,
  }));

describe('createOrUpdateCheckRun', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  const run = (extra: Partial<CheckRunContent>): CheckRunContent => ({
    owner: OWNER,
    repo: REPO,
    name: 'driftback / plan',
    headSha: harness.baseSha,
    conclusion: 'neutral',
    title: '1 warning',
    summary: 'prod-eu: 1 update',
    ...extra,
  });

  it.each([
    [0, 1],
    [1, 1],
    [50, 1],
    [51, 2],
    [120, 3],
  ])('sends %i annotations in %i request(s), completing with the last', async (count, requests) => {
    harness = await startHarness({ 'clusters/prod-eu/pvc.yaml': 'kind: PersistentVolumeClaim\n' });
    const result = await createOrUpdateCheckRun(harness.octokit, run({ annotations: annotations(count) }));
    expect(result).toMatchObject({ type: 'created', requests });
    const stored = harness.standIn.state.repo(OWNER, REPO).checkRuns.get(result.type === 'unchanged' ? -1 : result.id)!;
    expect(stored).toMatchObject({
      status: 'completed',
      conclusion: 'neutral',
      name: 'driftback / plan',
      headSha: harness.baseSha,
    });
    expect(stored.annotations).toHaveLength(count);
  });

  it('keeps one run per commit: unchanged is skipped, a change updates it in place', async () => {
    harness = await startHarness({ 'a.yaml': 'a: 1\n' });
    const first = await createOrUpdateCheckRun(harness.octokit, run({}));
    harness.standIn.resetCalls();
    expect(await createOrUpdateCheckRun(harness.octokit, run({}))).toEqual({ type: 'unchanged', id: first.id });
    expect(harness.standIn.calls().writes).toBe(0);
    const second = await createOrUpdateCheckRun(
      harness.octokit,
      run({ conclusion: 'failure', title: 'Render error', summary: 'clusters/prod-eu/a.yaml:3: bad indentation' }),
    );
    expect(second).toMatchObject({ type: 'updated', id: first.id });
    const runs = [...harness.standIn.state.repo(OWNER, REPO).checkRuns.values()];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ conclusion: 'failure', output: { title: 'Render error' } });
  });

  it('replaces a run whose old annotations would otherwise linger', async () => {
    harness = await startHarness({ 'clusters/prod-eu/pvc.yaml': 'x\n' });
    const first = await createOrUpdateCheckRun(harness.octokit, run({ annotations: annotations(2) }));
    const second = await createOrUpdateCheckRun(harness.octokit, run({ annotations: annotations(1), title: 'fewer' }));
    expect(second.type).toBe('created');
    expect(second.id).not.toBe(first.id);
    const { data } = await harness.octokit.rest.checks.listForRef({
      owner: OWNER,
      repo: REPO,
      ref: harness.baseSha,
      check_name: 'driftback / plan',
    });
    expect(data.check_runs[0]).toMatchObject({ id: second.id, output: { title: 'fewer', annotations_count: 1 } });
  });
});
