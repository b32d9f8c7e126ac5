// `/driftback ignore` when GitHub fails while the config pull request is written: the decision is
// recorded and the reply says, in general terms, that the rule was not proposed and what to do
// instead; the error's text stays in the App's log.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_LOGIN } from '../support/github/index.js';
import { FILES, liveOfCluster } from './plan-scenario.js';
import {
  drain,
  issueCommentPayload,
  OWNER,
  REPO,
  sendWebhook,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(FILES, '2026-12-02T12:00:00Z');
  h.standIn.setRole(OWNER, REPO, 'alice', 'write');
  // edge: `kubectl scale api --replicas=8`, seen in two snapshots: a drift PR proposes it.
  expect(await uploadSnapshot(h, 'edge', liveOfCluster('clusters/edge'))).toBe(202);
  h.clock.now = new Date('2026-12-02T12:10:00Z');
  expect(await uploadSnapshot(h, 'edge', liveOfCluster('clusters/edge'))).toBe(202);
  await drain(h);
}, 60_000);
afterAll(async () => h?.close());

it('GitHub failing while the config pull request is written: the decision stands, the reply says what to do', async () => {
  const issues = () => [...h.standIn.state.repo(OWNER, REPO).issues.values()];
  const pr = issues().find((issue) => issue.pull?.head === 'driftback/edge')!.number;
  h.standIn.injectFault({ route: 'POST /repos/{owner}/{repo}/git/trees', kind: 'server-error', times: 5 });
  const comment = h.standIn.postComment({
    owner: OWNER,
    repo: REPO,
    number: pr,
    body: '/driftback ignore spec.replicas on Deployment/shop/api because hotfix until Monday',
    login: 'alice',
  });
  expect(await sendWebhook(h, 'issue_comment', issueCommentPayload(h, pr, comment))).toBe(200);
  await drain(h);
  h.standIn.clearFaults();
  const reply = h.standIn
    .commentsOn(OWNER, REPO, pr)
    .find((c) => c.user === APP_LOGIN && c.body.startsWith('Recorded one decision'))!;
  expect(reply.body).toContain('ignored by `alice`');
  expect(reply.body).toContain(
    'The ignore rule for `.github/driftback.yml` was not proposed: GitHub answered with an error while driftback wrote it',
  );
  expect(reply.body).not.toMatch(/500|Internal Server Error|http/i);
  expect(h.standIn.reactionsOn(OWNER, REPO, comment.id).map((r) => r.content)).toEqual(['eyes', '+1']);
  expect(issues().filter((issue) => issue.pull?.head === 'driftback/_config/ignore')).toEqual([]);
  expect(await h.app.store.itemDecisions('acme/platform', 'edge')).toHaveLength(1);
});
