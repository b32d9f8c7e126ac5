// A Helm chart rendered through driftback (a Flux HelmRelease of the podinfo chart in the repository:
// values merged, sandboxed `helm template`, output read as desired objects) against `helm template`
// alone on the same chart and values, and a cached re-render (same chart, values and versions).
// Target: within 1.2× of `helm template` alone; cached ≈ 0.
//
// BENCH_CHART_ROUNDS=15 (the default) sets the rounds; each round runs every case once (median).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCluster } from '../src/core/render/index.js';
import { locateHelm } from '../src/helm/locate.js';
import { createChartRenderer } from '../src/helm/renderer.js';

const rounds = Number(process.env.BENCH_CHART_ROUNDS ?? 15);
const chartDir = fileURLToPath(new URL('../test/fixtures/upstream/charts/podinfo', import.meta.url));
const found = locateHelm();
if (!found.found) {
  console.log(`skipped: ${found.reason}`);
} else {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(`charts/podinfo/${relative(chartDir, path)}`, readFileSync(path, 'utf8'));
    }
  };
  walk(chartDir);
  files.set(
    'clusters/prod/podinfo.yaml',
    'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: podinfo\n  namespace: podinfo\n' +
      'spec:\n  chart:\n    spec:\n      chart: ./charts/podinfo\n      sourceRef:\n        kind: GitRepository\n' +
      '        name: flux-system\n        namespace: flux-system\n  values:\n    replicaCount: 2\n',
  );
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const live = { items: [], server: { gitVersion: 'v1.33.1', resources: [] } };
  // The machine is shared: the three cases run in turn within each round, so a busy moment costs
  // each of them alike, and each case's median is taken.
  const times = { alone: [] as number[], fresh: [] as number[], cached: [] as number[] };
  const timed = (into: number[], run: () => void): void => {
    const start = performance.now();
    run();
    into.push(performance.now() - start);
  };
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const values = join(mkdtempSync(join(tmpdir(), 'bench-values-')), 'values.yaml');
  writeFileSync(values, '{"replicaCount":2}');
  const home = mkdtempSync(join(tmpdir(), 'bench-home-'));
  const helmArgs = ['template', 'podinfo', chartDir, '-n', 'podinfo', '--no-hooks', '--include-crds'];
  helmArgs.push('--kube-version', 'v1.33.1', '-f', values);
  const shared = createChartRenderer({ helm: found.helm });
  renderCluster(files, target, { live, charts: shared });
  for (let i = 0; i < rounds; i++) {
    timed(times.alone, () =>
      execFileSync(found.helm.path, helmArgs, {
        env: { HOME: home, PATH: '/usr/bin:/bin' },
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
    timed(times.fresh, () => renderCluster(files, target, { live, charts: createChartRenderer({ helm: found.helm }) }));
    timed(times.cached, () => renderCluster(files, target, { live, charts: shared }));
  }
  const [alone, fresh, cached] = [median(times.alone), median(times.fresh), median(times.cached)];
  console.log(`helm template alone            ${alone.toFixed(1)} ms`);
  console.log(
    `driftback render (HelmRelease)  ${fresh.toFixed(1)} ms  (${(fresh / alone).toFixed(2)}× helm template; target ≤ 1.2×)`,
  );
  console.log(
    `cached re-render                ${cached.toFixed(1)} ms  (${(cached / alone).toFixed(2)}× helm template)`,
  );
}
