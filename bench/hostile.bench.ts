// A hostile installation against the real App process (the scenario of the hostile-tenant test):
// three pull requests from a fork whose renders hit the job's node budget, time limit and memory
// limit, while another installation uploads a snapshot and opens a pull request. Prints how long the
// good installation waited for its upload's answer and its plan, when each hostile plan ended, and
// the App process's peak RSS (VmHWM, worker threads included).
import { memoryHungryGenerator, quadraticPatches, manyConfigMaps } from '../test/support/hostile.js';
import { appliedObjects, CLUSTER, gitopsRepository, snapshotOf } from '../test/app/live.js';
import { upload, OWNER as GOOD_OWNER, REPO as GOOD_REPO, REPOSITORY as GOOD } from '../test/faults/scenario.js';
import { EVIL_OWNER, EVIL_REPO, startHostileScenario, under } from '../test/faults/hostile-scenario.js';

const MIB = 1024 * 1024;
const scenario = await startHostileScenario();
try {
  const idleRss = scenario.app.peakRssBytes();
  const started = Date.now();
  const wide = Object.fromEntries(['a', 'b', 'c'].map((f) => [`apps/web/${f}.yaml`, manyConfigMaps(f, 3_000)]));
  const hostile = {
    'many files (node budget)': await scenario.openPullRequest(EVIL_OWNER, EVIL_REPO, 'many-files', wide, 'eve'),
    'quadratic patches (time limit)': await scenario.openPullRequest(
      EVIL_OWNER,
      EVIL_REPO,
      'quadratic',
      under('clusters/kust', quadraticPatches(2_000)),
      'eve',
    ),
    'memory-hungry generator (memory limit)': await scenario.openPullRequest(
      EVIL_OWNER,
      EVIL_REPO,
      'memory',
      under('clusters/kust', memoryHungryGenerator(100)),
      'eve',
    ),
  };
  const uploadStarted = Date.now();
  const answer = await upload(
    scenario.app.baseUrl,
    snapshotOf(GOOD, appliedObjects(gitopsRepository()), '2026-12-02T03:05:00Z'),
  );
  const uploadMs = Date.now() - uploadStarted;
  const frontend = `clusters/${CLUSTER}/frontend-deployment.yaml`;
  const good = await scenario.openPullRequest(GOOD_OWNER, GOOD_REPO, 'scale-frontend', {
    [frontend]: gitopsRepository()[frontend]!.replace(/replicas: \d+/, 'replicas: 7'),
  });
  const goodRun = await scenario.planCheck(GOOD_OWNER, GOOD_REPO, good.headSha);
  const goodPlanS = (Date.now() - started) / 1000;
  const ended: string[] = [];
  for (const [name, pull] of Object.entries(hostile)) {
    const run = await scenario.planCheck(EVIL_OWNER, EVIL_REPO, pull.headSha);
    const summary = run.output.summary ?? '';
    const first = summary.split('\n').find((line) => /stopped|budget/.test(line)) ?? summary;
    ended.push(
      `- ${name}: ${run.conclusion} after ${((Date.now() - started) / 1000).toFixed(1)} s: ${first.slice(0, 140)}`,
    );
  }
  const peak = scenario.app.peakRssBytes();
  console.log('Limits: job time 15 s, job heap 192 MiB, 100,000 YAML nodes per job, 2 job workers.\n');
  console.log(
    `- good installation's upload answered ${answer.status} in ${uploadMs} ms while the hostile renders ran (target < 5,000 ms)`,
  );
  console.log(
    `- good installation's plan: ${goodRun.conclusion}, ${goodPlanS.toFixed(1)} s after the hostile pull requests were opened`,
  );
  console.log(ended.join('\n'));
  console.log(
    `- App peak RSS: ${(peak / MIB).toFixed(0)} MiB (after start-up ${(idleRss / MIB).toFixed(0)} MiB; target < 1,024 MiB: ${peak < 1024 * MIB ? 'met' : 'NOT met'})`,
  );
} finally {
  await scenario.close();
}
