// One tenant can never stop the App. A hostile installation's pull requests (from a fork) hold a
// kustomize pattern that backtracking engines take hours on, one RE2 refuses, Argo CD directory files
// each under the render budget but over it together, a kustomization that patches quadratically, and
// one that needs more memory than a job has; its plan template nests inline partials 2^40 deep. Against
// the real App process: each ends with its message on the check run, the App stays up, another
// installation's upload is answered in under 5 s and its pull request gets its plan meanwhile, and the
// process's peak RSS stays under 1 GiB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryHungryGenerator, quadraticPatches, manyConfigMaps } from '../support/hostile.js';
import { gitopsRepository, CLUSTER, appliedObjects, snapshotOf } from '../app/live.js';
import { upload, OWNER as GOOD_OWNER, REPO as GOOD_REPO, REPOSITORY as GOOD } from './scenario.js';
import {
  EVIL_OWNER,
  EVIL_REPO,
  patchTarget,
  startHostileScenario,
  under,
  type HostileScenario,
} from './hostile-scenario.js';

let scenario: HostileScenario;

beforeAll(async () => {
  scenario = await startHostileScenario();
}, 120_000);

afterAll(async () => scenario?.close());

describe('a hostile tenant', () => {
  it('a pattern that backtracks for hours renders at once; its 2^40 plan template falls back with the reason', async () => {
    const pull = await scenario.openPullRequest(
      EVIL_OWNER,
      EVIL_REPO,
      'pattern',
      {
        'clusters/kust/kustomization.yaml': patchTarget('(a+)+b'),
      },
      'eve',
    );
    const run = await scenario.planCheck(EVIL_OWNER, EVIL_REPO, pull.headSha);
    expect(run.conclusion).not.toBe('failure');
    expect(scenario.planComment(EVIL_OWNER, EVIL_REPO, pull.number)).toContain(
      'could not be used (its partials nest deeper than 16 levels); this is the built-in template',
    );
  });

  it('a pattern RE2 refuses fails the check with the reason, as kustomize would', async () => {
    const pull = await scenario.openPullRequest(
      EVIL_OWNER,
      EVIL_REPO,
      'backreference',
      {
        'clusters/kust/kustomization.yaml': patchTarget('(a)\\\\1'),
      },
      'eve',
    );
    const run = await scenario.planCheck(EVIL_OWNER, EVIL_REPO, pull.headSha);
    expect(run.conclusion).toBe('failure');
    expect(run.output.summary).toContain('error parsing regexp: invalid escape sequence');
  });

  it('while its renders hit each limit, another installation is answered in under 5 s and gets its plan', async () => {
    const wide = Object.fromEntries(['a', 'b', 'c'].map((f) => [`apps/web/${f}.yaml`, manyConfigMaps(f, 3_000)]));
    const hostile = [
      await scenario.openPullRequest(EVIL_OWNER, EVIL_REPO, 'many-files', wide, 'eve'),
      await scenario.openPullRequest(
        EVIL_OWNER,
        EVIL_REPO,
        'quadratic',
        under('clusters/kust', quadraticPatches(2_000)),
        'eve',
      ),
      await scenario.openPullRequest(
        EVIL_OWNER,
        EVIL_REPO,
        'memory',
        under('clusters/kust', memoryHungryGenerator(100)),
        'eve',
      ),
    ];
    // Meanwhile: another installation's upload, and its pull request.
    const started = Date.now();
    const snapshot = snapshotOf(GOOD, appliedObjects(gitopsRepository()), '2026-12-02T03:05:00Z');
    expect((await upload(scenario.app.baseUrl, snapshot)).status).toBe(202);
    expect(Date.now() - started).toBeLessThan(5_000);
    const frontend = `clusters/${CLUSTER}/frontend-deployment.yaml`;
    const good = await scenario.openPullRequest(GOOD_OWNER, GOOD_REPO, 'scale-frontend', {
      [frontend]: gitopsRepository()[frontend]!.replace(/replicas: \d+/, 'replicas: 7'),
    });
    const goodRun = await scenario.planCheck(GOOD_OWNER, GOOD_REPO, good.headSha);
    expect(goodRun.conclusion).not.toBe('failure');
    expect(goodRun.output.summary).toMatch(/1 to update/);

    const [files, quadratic, memory] = await Promise.all(
      hostile.map((pull) => scenario.planCheck(EVIL_OWNER, EVIL_REPO, pull.headSha)),
    );
    expect(files!.output.summary).toContain('the files this job reads hold more than 100,000 YAML nodes, its budget');
    expect(quadratic!.output.summary).toContain('render stopped after 15 s, the time limit of one job');
    expect(memory!.output.summary).toContain(
      'render stopped: it needed more than 192 MiB of memory, the limit of one job',
    );
    for (const run of [files, quadratic, memory]) expect(run!.conclusion).toBe('failure');

    expect((await fetch(`${scenario.app.baseUrl}/ping`)).status).toBe(200);
    expect(scenario.app.peakRssBytes()).toBeLessThan(1024 * 1024 * 1024);
  });
});
