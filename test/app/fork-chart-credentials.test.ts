// The job worker's plan of a pull request whose HelmRelease takes a chart from a private OCI registry:
// with the App's chart credentials configured, the chart is fetched and its objects planned; for a
// fork's pull request the credentials are not used, so the chart is not rendered (authentication
// required) and a plan on a fork never shows what a private chart renders.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BuiltPlans, PlanWork } from '../../src/app/plan/build-plans.js';
import { parseConfig } from '../../src/core/config/index.js';
import { renderPlanComment } from '../../src/core/report/index.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { startRegistry } from '../support/oci-registry/index.js';
import { openOciSession, type OciSession } from '../support/oci-registry/session.js';
import { pinnedHelm } from '../support/tools.js';

const USER = { username: 'ci-bot', password: 'n0t-a-real-secret' };
const CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n';
let registry: OciSession;
let runTask: (task: string, input: unknown, timeLimitMs: number) => unknown;

beforeAll(async () => {
  registry = openOciSession(await startRegistry({ privatePrefixes: ['private/'], user: USER }));
  const charts = registry.tempDir('charts-');
  registry.helm(['package', join(REPO_ROOT, 'test/fixtures/charts/webapp'), '--version', '1.4.0', '-d', charts]);
  registry.login(USER);
  registry.push(join(charts, 'webapp-1.4.0.tgz'), 'private');
  const credentials = join(registry.tempDir('credentials-'), 'chart-credentials.yaml');
  writeFileSync(
    credentials,
    `- url: oci://${registry.host}\n  username: ${USER.username}\n  password: ${USER.password}\n`,
  );
  vi.stubEnv('HELM_BINARY', pinnedHelm());
  vi.stubEnv('DRIFTBACK_FETCH_CHARTS', 'true');
  vi.stubEnv('DRIFTBACK_FETCH_ALLOW_PRIVATE', '127.0.0.1,127.0.0.2');
  vi.stubEnv('DRIFTBACK_FETCH_PLAIN_HTTP', registry.host);
  vi.stubEnv('DRIFTBACK_CHART_CREDENTIALS', credentials);
  vi.stubEnv('DATA_DIR', registry.tempDir('data-'));
  // The worker finds Helm when it loads: after the environment is set.
  ({ runTask } = await import('../../src/app/worker/tasks.js'));
});
afterAll(() => {
  vi.unstubAllEnvs();
  registry?.stop();
});

function work(fork: boolean): { plan: PlanWork } {
  const parsed = parseConfig(CONFIG);
  if (!parsed.ok) throw new Error('the config does not parse');
  const base = new Map([['.github/driftback.yml', CONFIG]]);
  const head = new Map([
    ...base,
    [
      'clusters/prod/repo.yaml',
      `apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: acme\n  namespace: shop\nspec:\n  type: oci\n  interval: 10m\n  url: oci://${registry.host}/private\n`,
    ],
    [
      'clusters/prod/release.yaml',
      'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: webapp\n  namespace: shop\nspec:\n  interval: 10m\n  chart:\n    spec:\n      chart: webapp\n      version: 1.4.0\n      sourceRef:\n        kind: HelmRepository\n        name: acme\n',
    ],
  ]);
  return {
    plan: {
      repository: 'acme/gitops',
      config: parsed.config,
      headFiles: head,
      baseFiles: base,
      headSha: '1'.repeat(40),
      changed: ['clusters/prod/repo.yaml', 'clusters/prod/release.yaml'],
      now: new Date().toISOString(),
      fork,
      latest: new Map([['prod', undefined]]),
    },
  };
}

describe("a fork's pull request and a private chart", () => {
  it('is planned with the chart fetched with the credentials when the pull request is not a fork', () => {
    const built = runTask('plan', work(false), 60_000) as BuiltPlans;
    const created = built.plans[0]!.plan.create.map((change) => `${change.id.kind}/${change.id.name}`);
    expect(created).toContain('Deployment/webapp');
    expect(created).toContain('HelmRelease/webapp');
  });

  it('is planned without the credentials for a fork: the chart is not rendered, nothing of it is shown', () => {
    const built = runTask('plan', work(true), 60_000) as BuiltPlans;
    const created = built.plans[0]!.plan.create.map((change) => change.id.kind);
    expect(created.sort()).toEqual(['HelmRelease', 'HelmRepository']);
    expect(JSON.stringify(built)).not.toContain('"Deployment"');
  });

  it('says in the plan comment why the chart of a fork is not rendered, never "no changes" for it', () => {
    const built = runTask('plan', work(true), 60_000) as BuiltPlans;
    const comment = renderPlanComment(built.plans, { snapshots: {} });
    expect(comment).toMatch(
      /\*\*Not rendered\*\* \(`clusters\/prod\/release\.yaml:1`\): .*\(spec\.chart\): not rendered: chart webapp 1\.4\.0: authentication required \(configure credentials for 127\.0\.0\.1:\d+\)/,
    );
    expect(comment).toMatch(/shop\/webapp: not rendered: chart webapp 1\.4\.0: authentication required/);
  });
});
