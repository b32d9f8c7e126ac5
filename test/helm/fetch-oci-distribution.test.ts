// Charts pushed by the pinned Helm to the distribution registry itself (Debian's `docker-registry`, the
// registry Docker Hub's API derives from) and fetched by driftback: exact tag, range over the tag list,
// manifest digest, a missing tag, and the render equal to `helm template` of the archive `helm pull`
// wrote. Where the machine has no `docker-registry`, the same assertions run against the stand-in.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchChart, type ChartFetchOptions } from '../../src/helm/fetch.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { packagedChart } from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { distributionBinary, startDistribution } from '../support/oci-registry/distribution.js';
import { startRegistry, type StandInRegistry } from '../support/oci-registry/index.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);

const binary = distributionBinary();
const registries = [
  binary
    ? { registry: `docker-registry (${binary})`, start: () => startDistribution(binary) }
    : { registry: 'the stand-in (no docker-registry on this machine)', start: () => startRegistry() },
];

const charts = packagedChart('charts/webapp');
const helmHome = mkdtempSync(join(tmpdir(), 'helm-home-'));
const env = { HOME: helmHome, PATH: '/usr/bin:/bin' };

function helm(args: string[]): string {
  const run = spawnSync(pinnedHelm(), args, { encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`helm ${args[0]}: ${run.stderr}`);
  return run.stdout + run.stderr;
}

describe.each(registries)('charts pushed by helm to $registry', ({ start }) => {
  let registry: StandInRegistry;
  const digests = new Map<string, string>();
  const options = (): ChartFetchOptions => ({
    cacheDir: mkdtempSync(join(tmpdir(), 'chart-cache-')),
    allowPrivate: ['127.0.0.1', '127.0.0.2'],
    plainHttp: [registry.host],
  });

  beforeAll(async () => {
    registry = await start();
    execFileSync(pinnedHelm(), ['package', join(REPO_ROOT, 'test/fixtures/charts/webapp'), '--version', '1.5.0'], {
      cwd: charts,
      env,
    });
    for (const version of ['1.4.0', '1.5.0']) {
      const pushed = helm([
        'push',
        join(charts, `webapp-${version}.tgz`),
        `oci://${registry.host}/charts`,
        '--plain-http',
      ]);
      digests.set(version, /Digest: (sha256:[0-9a-f]{64})/.exec(pushed)![1]!);
    }
  });
  afterAll(() => registry?.stop());

  const pulled = (version: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'pulled-'));
    helm(['pull', `oci://${registry.host}/charts/webapp`, '--version', version, '--plain-http', '-d', dir]);
    return join(dir, readdirSync(dir)[0]!);
  };

  it('fetches a version by its tag: the archive helm pushed, byte for byte', () => {
    const fetched = fetchChart(`oci://${registry.host}/charts`, 'webapp', '1.4.0', options());
    expect('bytes' in fetched && fetched.bytes).toEqual(readFileSync(join(charts, 'webapp-1.4.0.tgz')));
  });

  it('picks the highest tag a range allows, and by manifest digest the version pushed with it', () => {
    const ranged = fetchChart(`oci://${registry.host}/charts`, 'webapp', '>=1.0.0 <2', options());
    expect('bytes' in ranged && ranged.bytes).toEqual(readFileSync(join(charts, 'webapp-1.5.0.tgz')));
    const pinned = fetchChart(`oci://${registry.host}/charts`, 'webapp', digests.get('1.4.0')!, options());
    expect('bytes' in pinned && pinned.bytes).toEqual(readFileSync(join(charts, 'webapp-1.4.0.tgz')));
  });

  it('says a tag does not exist, and a range no tag satisfies', () => {
    expect(fetchChart(`oci://${registry.host}/charts`, 'webapp', '9.9.9', options())).toEqual({
      reason: `chart webapp 9.9.9: ${registry.host}/charts/webapp:9.9.9 does not exist`,
    });
    expect(fetchChart(`oci://${registry.host}/charts`, 'webapp', '2.x', options())).toEqual({
      reason: `chart webapp 2.x: ${registry.host}/charts/webapp has no tag the version allows`,
    });
  });

  it('renders as helm template renders the archive helm pull wrote', () => {
    const render = createChartRenderer({ helm: found.helm, fetch: options() });
    const output = render({
      where: 'webapp',
      chart: { type: 'repository', url: `oci://${registry.host}/charts`, name: 'webapp', version: '1.x' },
      releaseName: 'webapp',
      namespace: 'shop',
      valueFiles: ['replicaCount: 3\n'],
      set: [],
      apiVersions: [],
      kubeVersion: 'v1.32.3',
      includeCrds: true,
    });
    const values = join(mkdtempSync(join(tmpdir(), 'values-')), 'values.yaml');
    writeFileSync(values, 'replicaCount: 3\n');
    const theirs = helm([
      'template',
      'webapp',
      pulled('1.x'),
      '--no-hooks',
      '--namespace',
      'shop',
      '--include-crds',
      '--kube-version',
      'v1.32.3',
      '--values',
      values,
    ]);
    expect(output.ok && output.manifest).toContain('helm.sh/chart: webapp-1.5.0');
    expect(output.ok && output.manifest).toBe(theirs);
  });
});
