// `/driftback ignore` when GitHub fails while the config pull request is written: the decision is
// recorded and the reply says, in general terms, that the rule was not proposed and what to do
// instead; the error's text stays in the App's log.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCommandHarness, type CommandHarness } from '../support/command-harness.js';
import { APP_LOGIN } from '../support/github/index.js';
import { FILES, liveOfCluster } from './plan-scenario.js';
import { OWNER, REPO } from './plan-harness.js';

let h: CommandHarness;
beforeAll(async () => {
  h = await startCommandHarness(FILES, { start: '2026-12-02T12:00:00Z', roles: { alice: 'write' } });
  // edge: `kubectl scale api --replicas=8`, seen in two snapshots: a drift PR proposes it.
  await h.snapshots('edge', () => liveOfCluster('clusters/edge'), ['2026-12-02T12:00:00Z', '2026-12-02T12:10:00Z']);
}, 60_000);
afterAll(async () => h?.close());

it('GitHub failing while the config pull request is written: the decision stands, the reply says what to do', async () => {
  const issues = () => [...h.standIn.state.repo(OWNER, REPO).issues.values()];
  const pr = issues().find((issue) => issue.pull?.head === 'driftback/edge')!.number;
  h.standIn.injectFault({ route: 'POST /repos/{owner}/{repo}/git/trees', kind: 'server-error', times: 5 });
  const { replies, reactions } = await h.command(
    pr,
    'alice',
    '/driftback ignore spec.replicas on Deployment/shop/api because hotfix until Monday',
  );
  h.standIn.clearFaults();
  const reply = replies.find((body) => body.startsWith('Recorded one decision'))!;
  expect(reply).toContain('ignored by `alice`');
  expect(reply).toContain(
    'The ignore rule for `.github/driftback.yml` was not proposed: GitHub answered with an error while driftback wrote it',
  );
  expect(reply).not.toMatch(/500|Internal Server Error|http/i);
  expect(reactions).toEqual([`${APP_LOGIN}:eyes`, `${APP_LOGIN}:+1`]);
  expect(issues().filter((issue) => issue.pull?.head === 'driftback/_config/ignore')).toEqual([]);
  expect(await h.app.store.itemDecisions('acme/platform', 'edge')).toHaveLength(1);
});
