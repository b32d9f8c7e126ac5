// A job the App did not survive (out of memory, killed) on its last attempt is given up at the next
// start, not run again, and recorded where a user looks: the pull request's check run fails with
// the reason, the cluster's dashboard entry says why its drift check stopped, a comment command gets
// a reply saying it failed and how to run it again.
import { afterEach, describe, expect, it } from 'vitest';
import { readClusterState } from '../../src/app/reconcile/state.js';
import { startAppHarness, type AppHarness } from '../support/app.js';
import { eventually } from '../support/app-process.js';
import { CLUSTER, gitopsRepository } from './live.js';
import { sqliteOf } from '../support/sqlite-file.js';
import { APP_LOGIN } from '../support/github/index.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function crashedRun(
  h: AppHarness,
  queue: string,
  key: string,
  payload: Record<string, unknown>,
  attempt: number,
): void {
  sqliteOf(h.app.store)
    .prepare(`INSERT INTO jobs (queue, key, payload, state, attempt, run_at) VALUES (?, ?, ?, 'running', ?, 0)`)
    .run(queue, key, JSON.stringify(payload), attempt);
}

describe('jobs the App did not survive', () => {
  it('a plan job cut off on its last attempt fails the check run with the reason and is not run again', async () => {
    const h = (harness = await startAppHarness({ files: gitopsRepository() }));
    h.standIn.pushCommit({
      owner: h.owner,
      repo: h.repo,
      branch: 'change/bomb',
      files: { 'clusters/prod-eu/x.yaml': 'a: 1\n' },
    });
    h.standIn.addUser('ghp_alice', 'alice');
    const created = await fetch(`${h.standIn.baseUrl}/repos/${h.owner}/${h.repo}/pulls`, {
      method: 'POST',
      headers: { authorization: 'token ghp_alice' },
      body: JSON.stringify({ title: 'Add x', head: 'change/bomb', base: 'main' }),
    });
    const pull = (await created.json()) as { number: number; head: { sha: string } };
    crashedRun(
      h,
      'plan',
      `${h.repository}#pr-${pull.number}`,
      { repository: h.repository, number: pull.number, reason: 'opened' },
      5,
    );
    await h.restart();
    const run = await eventually('the failed check run', () =>
      [...h.standIn.state.repo(h.owner, h.repo).checkRuns.values()].find((r) => r.headSha === pull.head.sha),
    );
    expect(run).toMatchObject({
      name: 'driftback / plan',
      conclusion: 'failure',
      output: { title: 'driftback could not plan this pull request' },
    });
    expect(run.output.summary).toMatch(
      /given up after 5 attempts: the App stopped while running it \(attempt 5: out of memory, or killed\)/,
    );
    expect([...h.standIn.state.repo(h.owner, h.repo).comments.values()]).toEqual([]);
    expect((await fetch(`${h.baseUrl}/ping`)).status).toBe(200);
  });

  it("a reconcile cut off on its last attempt shows the reason on the cluster's dashboard entry", async () => {
    const h = (harness = await startAppHarness({ files: gitopsRepository() }));
    crashedRun(
      h,
      'reconcile',
      `${h.repository}#${CLUSTER}`,
      { repository: h.repository, cluster: CLUSTER, reason: 'snapshot' },
      5,
    );
    await h.restart();
    const state = await eventually('the recorded failure', async () => {
      const found = await readClusterState(h.app.store, h.repository, CLUSTER);
      return found.outcome ? found : undefined;
    });
    expect(state.outcome).toEqual({
      type: 'failed',
      message: expect.stringMatching(
        /^the drift check of prod-eu was given up after 5 attempts: the App stopped while running it/,
      ),
    });
    expect(state.problems).toHaveLength(1);
  });

  it('a comment command cut off on its last attempt gets a reply saying it failed, why, and to write it again', async () => {
    const h = (harness = await startAppHarness({ files: gitopsRepository() }));
    h.standIn.pushCommit({ owner: h.owner, repo: h.repo, branch: 'change/x', files: { 'docs/x.md': 'x\n' } });
    h.standIn.addUser('ghp_alice', 'alice');
    const created = await fetch(`${h.standIn.baseUrl}/repos/${h.owner}/${h.repo}/pulls`, {
      method: 'POST',
      headers: { authorization: 'token ghp_alice' },
      body: JSON.stringify({ title: 'Add x', head: 'change/x', base: 'main' }),
    });
    const pull = (await created.json()) as { number: number };
    const line = '/driftback ignore Deployment/shop/api spec.replicas because sale';
    const comment = h.standIn.postComment({
      owner: h.owner,
      repo: h.repo,
      number: pull.number,
      body: line,
      login: 'alice',
    });
    const job = { repository: h.repository, number: pull.number, commentId: comment.id, line, login: 'alice' };
    crashedRun(h, 'command', `${h.repository.toLowerCase()}#comment-${comment.id}`, job, 5);
    await h.restart();
    const reply = await eventually('the reply', () =>
      h.standIn.commentsOn(h.owner, h.repo, pull.number).find((c) => c.user === APP_LOGIN),
    );
    expect(reply.body).toBe(
      'driftback could not run `/driftback ignore Deployment/shop/api spec.replicas because sale`: it was given up ' +
        'after 5 attempts, because the App stopped while running it (it ran out of memory or was restarted). ' +
        'Part of it may have been done (a decision recorded, a pull request opened): `/driftback explain` shows ' +
        'what is recorded. To try again, write the command in a new comment (an edited comment is not run again).',
    );
    await eventually('the reaction', () =>
      h.standIn.reactionsOn(h.owner, h.repo, comment.id).find((r) => r.content === 'confused'),
    );
  });
});
