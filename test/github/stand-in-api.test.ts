// The stand-in answers like GitHub: validation errors (422), unknown things (404), pagination
// with Link headers, ref semantics.
import { afterEach, describe, expect, it } from 'vitest';
import { OWNER, REPO, startHarness, type Harness } from './harness.js';

describe('GitHub stand-in REST behaviour', () => {
  let harness: Harness;
  afterEach(async () => harness?.standIn.close());

  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any; link: string | null }> => {
    const response = await fetch(`${harness.standIn.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, link: response.headers.get('link') };
  };

  it.each([
    ['POST', `/repos/${OWNER}/${REPO}/git/refs`, { ref: 'main', sha: 'x' }, 422],
    ['POST', `/repos/${OWNER}/${REPO}/git/refs`, { ref: 'refs/heads/main', sha: '0'.repeat(40) }, 422],
    [
      'POST',
      `/repos/${OWNER}/${REPO}/git/trees`,
      { tree: [{ path: 'a', mode: '100644', type: 'blob', sha: '0'.repeat(40) }] },
      422,
    ],
    [
      'POST',
      `/repos/${OWNER}/${REPO}/git/trees`,
      { tree: [{ path: '../a', mode: '100644', type: 'blob', content: 'x' }] },
      422,
    ],
    [
      'POST',
      `/repos/${OWNER}/${REPO}/git/trees`,
      { tree: [{ path: 'a', mode: '100600', type: 'blob', content: 'x' }] },
      422,
    ],
    ['POST', `/repos/${OWNER}/${REPO}/git/trees`, { base_tree: '0'.repeat(40), tree: [] }, 422],
    ['POST', `/repos/${OWNER}/${REPO}/git/commits`, { message: 'm', tree: '0'.repeat(40) }, 422],
    ['POST', `/repos/${OWNER}/${REPO}/issues`, { body: 'no title' }, 422],
    ['POST', `/repos/${OWNER}/${REPO}/issues`, { title: 't', body: 'x'.repeat(65537) }, 422],
    ['POST', `/repos/${OWNER}/${REPO}/pulls`, { title: 't', head: 'nope', base: 'main' }, 422],
    ['POST', `/repos/${OWNER}/${REPO}/check-runs`, { name: 'n', head_sha: '0'.repeat(40) }, 422],
    ['POST', `/repos/${OWNER}/${REPO}/issues`, '{not json', 400],
    ['GET', `/repos/${OWNER}/nope`, undefined, 404],
    ['GET', `/repos/${OWNER}/${REPO}/git/blobs/${'0'.repeat(40)}`, undefined, 404],
    ['GET', `/repos/${OWNER}/${REPO}/unknown/route`, undefined, 404],
  ])('%s %s → %i', async (method, path, body, status) => {
    harness = await startHarness({ 'a.yaml': 'a: 1\n' });
    expect((await call(method, path, body)).status).toBe(status);
  });

  it('refuses a non-fast-forward ref update unless forced, and a duplicate ref', async () => {
    harness = await startHarness({ 'a.yaml': 'a: 1\n' });
    const base = harness.baseSha;
    const side = harness.standIn.pushCommit({ owner: OWNER, repo: REPO, branch: 'side', files: { 'b.yaml': 'b\n' } });
    const other = harness.standIn.pushCommit({ owner: OWNER, repo: REPO, branch: 'other', files: { 'c.yaml': 'c\n' } });
    expect(
      (await call('POST', `/repos/${OWNER}/${REPO}/git/refs`, { ref: 'refs/heads/side', sha: base })).body.message,
    ).toBe('Reference already exists');
    expect((await call('PATCH', `/repos/${OWNER}/${REPO}/git/refs/heads/side`, { sha: other })).body.message).toBe(
      'Update is not a fast forward',
    );
    expect(
      (await call('PATCH', `/repos/${OWNER}/${REPO}/git/refs/heads%2Fside`, { sha: other, force: true })).status,
    ).toBe(200);
    expect(harness.standIn.headOf(OWNER, REPO, 'side')).toBe(other);
    expect(side).not.toBe(other);
  });

  it('refuses a second open PR for the same head, and one with no commits', async () => {
    harness = await startHarness({ 'a.yaml': 'a: 1\n' });
    await call('POST', `/repos/${OWNER}/${REPO}/git/refs`, { ref: 'refs/heads/empty', sha: harness.baseSha });
    expect(
      (await call('POST', `/repos/${OWNER}/${REPO}/pulls`, { title: 't', head: 'empty', base: 'main' })).body.errors[0]
        .message,
    ).toBe('No commits between main and empty');
    harness.standIn.pushCommit({ owner: OWNER, repo: REPO, branch: 'feature', files: { 'b.yaml': 'b\n' } });
    expect(
      (await call('POST', `/repos/${OWNER}/${REPO}/pulls`, { title: 't', head: 'feature', base: 'main' })).status,
    ).toBe(201);
    expect(
      (await call('POST', `/repos/${OWNER}/${REPO}/pulls`, { title: 't', head: `${OWNER}:feature`, base: 'main' })).body
        .errors[0].message,
    ).toBe(`A pull request already exists for ${OWNER}:feature.`);
    const files = await call('GET', `/repos/${OWNER}/${REPO}/pulls/1/files`);
    expect(files.body.map((file: { filename: string; status: string }) => [file.filename, file.status])).toEqual([
      ['b.yaml', 'added'],
    ]);
  });

  it('paginates with Link headers that Octokit follows', async () => {
    harness = await startHarness({ 'a.yaml': 'a: 1\n' });
    for (let index = 0; index < 75; index += 1)
      await harness.octokit.rest.issues.create({ owner: OWNER, repo: REPO, title: `issue ${index}` });
    const first = await call('GET', `/repos/${OWNER}/${REPO}/issues?per_page=30`);
    expect(first.body).toHaveLength(30);
    expect(first.link).toContain('rel="next"');
    expect(first.link).toContain('page=3>; rel="last"');
    harness.standIn.resetCalls();
    const all = await harness.octokit.paginate(harness.octokit.rest.issues.listForRepo, {
      owner: OWNER,
      repo: REPO,
      per_page: 30,
    });
    expect(all).toHaveLength(75);
    expect(new Set(all.map((issue) => issue.number)).size).toBe(75);
    expect(harness.standIn.callsTo('GET /repos/{owner}/{repo}/issues')).toBe(3);
  });

  it('serves a file with the contents API and a merged PR moves the default branch', async () => {
    harness = await startHarness({ 'a.yaml': 'a: 1\n' });
    harness.standIn.pushCommit({ owner: OWNER, repo: REPO, branch: 'feature', files: { 'a.yaml': 'a: 2\n' } });
    const { data: pr } = await harness.octokit.rest.pulls.create({
      owner: OWNER,
      repo: REPO,
      title: 't',
      head: 'feature',
      base: 'main',
    });
    harness.standIn.mergePullRequest({ owner: OWNER, repo: REPO, number: pr.number });
    const { data } = await harness.octokit.rest.repos.getContent({
      owner: OWNER,
      repo: REPO,
      path: 'a.yaml',
      ref: 'main',
    });
    expect(Buffer.from((data as { content: string }).content, 'base64').toString()).toBe('a: 2\n');
    const { data: merged } = await harness.octokit.rest.pulls.get({ owner: OWNER, repo: REPO, pull_number: pr.number });
    expect(merged).toMatchObject({ state: 'closed', merged: true });
  });
});
