// Helm charts rendered through driftback (a Flux HelmRelease of a chart in the repository: values
// merged, sandboxed `helm template`, output read as desired objects) against `helm template` alone
// on the same chart and values, and a cached re-render (same chart, values and versions). Two real
// charts: podinfo 6.14.1 (no subcharts) and Bitnami WordPress 27.0.0 with its subcharts MariaDB,
// Memcached (enabled) and the `common` library chart, laid out as `helm dependency build` leaves them.
// Target: within 1.2× of `helm template` alone; cached ≈ 0.
//
// BENCH_CHART_ROUNDS=15 (the default) sets the rounds; each round runs every case once (median).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCluster } from '../src/core/render/index.js';
import { locateHelm, type HelmBinary } from '../src/helm/locate.js';
import { createChartRenderer } from '../src/helm/renderer.js';

const rounds = Number(process.env.BENCH_CHART_ROUNDS ?? 15);
const upstream = fileURLToPath(new URL('../test/fixtures/upstream/charts', import.meta.url));

interface Chart {
  label: string;
  name: string;
  /** The chart's files by path inside the chart. */
  files: Map<string, string>;
  /** The HelmRelease's `spec.values`, as YAML lines under `values:`. */
  values: string;
}

function readTree(dir: string, into = new Map<string, string>(), prefix = ''): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) readTree(path, into, `${prefix}${name}/`);
    else into.set(`${prefix}${name}`, readFileSync(path, 'utf8'));
  }
  return into;
}

/** WordPress with `common` also under each subchart that depends on it, as their packaged archives hold it. */
function wordpress(): Map<string, string> {
  const files = readTree(join(upstream, 'wordpress'));
  for (const [path, text] of [...files])
    if (path.startsWith('charts/common/'))
      for (const sub of ['mariadb', 'memcached']) files.set(`charts/${sub}/${path}`, text);
  return files;
}

/** Writes the chart to a fresh directory, as `helm template` alone reads it. */
function onDisk(chart: Chart): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'bench-chart-')), chart.name);
  for (const [path, text] of chart.files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function bench(helm: HelmBinary, chart: Chart): void {
  const files = new Map([...chart.files].map(([path, text]) => [`charts/${chart.name}/${path}`, text]));
  files.set(
    'clusters/prod/release.yaml',
    `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: ${chart.name}\n  namespace: ${chart.name}\n` +
      `spec:\n  chart:\n    spec:\n      chart: ./charts/${chart.name}\n      sourceRef:\n        kind: GitRepository\n` +
      `        name: flux-system\n        namespace: flux-system\n  values:\n${chart.values}`,
  );
  const target = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const live = { items: [], server: { gitVersion: 'v1.33.1', resources: [] } };
  const values = join(mkdtempSync(join(tmpdir(), 'bench-values-')), 'values.yaml');
  writeFileSync(values, chart.values.replace(/^ {4}/gm, ''));
  const home = mkdtempSync(join(tmpdir(), 'bench-home-'));
  const helmArgs = ['template', chart.name, onDisk(chart), '-n', chart.name, '--no-hooks', '--include-crds'];
  helmArgs.push('--kube-version', 'v1.33.1', '-f', values);
  const shared = createChartRenderer({ helm });
  const first = renderCluster(files, target, { live, charts: shared });
  if (first.errors.length || first.notes.some((n) => /not rendered/.test(n.message)))
    throw new Error(`${chart.label} did not render: ${JSON.stringify([first.errors, first.notes])}`);
  // The machine is shared: the three cases run in turn within each round, so a busy moment costs
  // each of them alike, and each case's median is taken.
  const times = { alone: [] as number[], fresh: [] as number[], cached: [] as number[] };
  const timed = (into: number[], run: () => void): void => {
    const start = performance.now();
    run();
    into.push(performance.now() - start);
  };
  const env = { HOME: home, PATH: '/usr/bin:/bin' };
  for (let i = 0; i < rounds; i++) {
    timed(times.alone, () => execFileSync(helm.path, helmArgs, { env, stdio: ['ignore', 'pipe', 'ignore'] }));
    timed(times.fresh, () => renderCluster(files, target, { live, charts: createChartRenderer({ helm }) }));
    timed(times.cached, () => renderCluster(files, target, { live, charts: shared }));
  }
  report(chart, first.objects.length, median(times.alone), median(times.fresh), median(times.cached));
}

function report(chart: Chart, objects: number, alone: number, fresh: number, cached: number): void {
  const ratio = fresh / alone;
  console.log(`${chart.label}: ${chart.files.size} chart files, ${objects} objects rendered`);
  console.log(`  helm template alone    ${alone.toFixed(1)} ms`);
  console.log(
    `  driftback render       ${fresh.toFixed(1)} ms  (${ratio.toFixed(2)}× helm template; target ≤ 1.2×: ${ratio <= 1.2 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  cached re-render       ${cached.toFixed(1)} ms  (${(cached / alone).toFixed(2)}× helm template; helm not run)`,
  );
}

const found = locateHelm();
if (!found.found) {
  console.log(`skipped: ${found.reason}`);
} else {
  bench(found.helm, {
    label: 'podinfo 6.14.1 (no subcharts)',
    name: 'podinfo',
    files: readTree(join(upstream, 'podinfo')),
    values: '    replicaCount: 2\n',
  });
  bench(found.helm, {
    label: 'wordpress 27.0.0 (subcharts mariadb 22.0.0, memcached 7.9.7, common 2.31.4)',
    name: 'wordpress',
    files: wordpress(),
    values: '    replicaCount: 2\n    memcached:\n      enabled: true\n',
  });
}
