// Charts of OCI registries, fetched as Helm pulls them: the pinned Helm pushes a chart to the registry
// stand-in and pulls it back (so the stand-in speaks the distribution spec as Helm expects), then
// driftback fetches the same chart — tag or semver range over the tags, manifest, digest-checked blob,
// anonymous token — and renders it exactly as `helm template` renders the archive Helm pulled. A
// private repository needs the credentials configured for the App; without them the chart is not
// rendered, and says which host to configure.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartRequest } from '../../src/core/charts/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { fetchChart, type ChartFetchOptions } from '../../src/helm/fetch.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { expectSame, helmTemplateObjects } from '../support/charts.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { startRegistry } from '../support/oci-registry/index.js';
import { openOciSession, type OciSession } from '../support/oci-registry/session.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);

const USER = { username: 'ci-bot', password: 'n0t-a-real-secret' };
/** The registry's blobs are served from 127.0.0.2 (a redirect to another host). */
let registry: OciSession;
const options = (extra: Partial<ChartFetchOptions> = {}) => registry.options(extra);
const helm = (args: string[]) => registry.helm(args);
let charts: string;
/** The manifest digest `helm push` printed for each version. */
const pushedDigests = new Map<string, string>();

beforeAll(async () => {
  // One tag per page: a version range must follow the tag list's pages, as Helm does.
  registry = openOciSession(await startRegistry({ privatePrefixes: ['private/'], user: USER, pageSize: 1 }));
  charts = registry.tempDir('charts-');
  for (const version of ['1.4.0', '1.5.0']) {
    helm(['package', join(REPO_ROOT, 'test/fixtures/charts/webapp'), '--version', version, '-d', charts]);
    pushedDigests.set(version, registry.push(join(charts, `webapp-${version}.tgz`), 'charts'));
  }
  registry.push(join(charts, 'webapp-1.4.0.tgz'), 'tampered');
  // `tagged/webapp` holds 1.4.0 and 1.5.0, with `latest` on 1.4.0 (as `crane tag` or `oras tag` sets it).
  for (const version of ['1.4.0', '1.5.0']) registry.push(join(charts, `webapp-${version}.tgz`), 'tagged');
  await tagAs('tagged/webapp', '1.4.0', 'latest');
  // Pushed with the user's credentials given to this push only: Helm keeps no login for later pulls.
  const login = ['--plain-http', '--username', USER.username, '--password', USER.password];
  helm(['push', join(charts, 'webapp-1.4.0.tgz'), `oci://${registry.host}/private`, ...login]);
});
afterAll(() => registry?.stop());

/** Puts the manifest tagged `from` under the tag `to` as well, with an anonymous token. */
async function tagAs(repository: string, from: string, to: string): Promise<void> {
  const { token } = (await (await fetch(`http://${registry.host}/token`)).json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/vnd.oci.image.manifest.v1+json' };
  const got = await fetch(`http://${registry.host}/v2/${repository}/manifests/${from}`, { headers });
  const put = await fetch(`http://${registry.host}/v2/${repository}/manifests/${to}`, {
    method: 'PUT',
    headers: { Authorization: headers.Authorization, 'Content-Type': got.headers.get('content-type') ?? '' },
    body: Buffer.from(await got.arrayBuffer()),
  });
  if (put.status !== 201) throw new Error(`tagging ${repository}:${to} answered ${put.status}`);
}

const request = (url: string, version: string): ChartRequest => ({
  where: `${url}/webapp:${version}`,
  chart: { type: 'repository', url, name: 'webapp', version },
  releaseName: 'webapp',
  namespace: 'shop',
  valueFiles: ['replicaCount: 3\n'],
  set: [],
  apiVersions: [],
  kubeVersion: 'v1.32.3',
  includeCrds: true,
});

/** `helm pull` of the registry's chart into a fresh directory: the archive Helm itself would render. */
function helmPull(reference: string, version: string, extra: string[] = []): string {
  const dir = registry.tempDir('pulled-');
  helm(['pull', reference, '--version', version, '--plain-http', '-d', dir, ...extra]);
  return join(dir, readdirSync(dir)[0]!);
}

/** `helm template` of an archive with the request's values, hooks printed but tests, as the renderer runs it. */
function helmTemplate(archive: string): string {
  const values = join(registry.tempDir('values-'), 'values.yaml');
  writeFileSync(values, 'replicaCount: 3\n');
  const args = ['--namespace', 'shop', '--include-crds', '--kube-version', 'v1.32.3', '--values', values];
  return helm(['template', 'webapp', archive, '--skip-tests', ...args]);
}

describe('the OCI registry stand-in', () => {
  it('takes helm push and gives helm pull the archive back byte for byte, by version and by range', () => {
    expect(readFileSync(helmPull(`oci://${registry.host}/charts/webapp`, '1.4.0'))).toEqual(
      readFileSync(join(charts, 'webapp-1.4.0.tgz')),
    );
    expect(helmPull(`oci://${registry.host}/charts/webapp`, '1.x')).toMatch(/webapp-1\.5\.0\.tgz$/);
    expect(() => helmPull(`oci://${registry.host}/private/webapp`, '1.4.0')).toThrow(/401/);
  });
});

describe('a chart fetched from an OCI registry', () => {
  it('pulls the tag, checks the blob digest, keeps the archive in the cache', () => {
    const opts = options();
    const fetched = fetchChart(`oci://${registry.host}/charts`, 'webapp', '1.4.0', opts);
    expect('bytes' in fetched && fetched.bytes).toEqual(readFileSync(join(charts, 'webapp-1.4.0.tgz')));
    // Served from the cache afterwards: no request, even with the registry unreachable.
    const gone = fetchChart(`oci://${registry.host}/charts`, 'webapp', '1.4.0', { ...opts, allowPrivate: [] });
    expect(gone).toEqual(fetched);
  });

  it('picks the highest tag a range allows, as Helm and Flux do, over every page of the tag list', () => {
    const fetched = fetchChart(`oci://${registry.host}/charts`, 'webapp', '>=1.0.0 <2', options());
    expect('path' in fetched && fetched.path).toMatch(/webapp-1\.5\.0\.tgz$/);
    expect(fetchChart(`oci://${registry.host}/charts`, 'webapp', '2.x', options())).toEqual({
      reason: `chart webapp 2.x: ${registry.host}/charts/webapp has no tag the version allows`,
    });
    expect(fetchChart(`oci://${registry.host}/charts`, 'webapp', '9.9.9', options())).toEqual({
      reason: `chart webapp 9.9.9: ${registry.host}/charts/webapp:9.9.9 does not exist`,
    });
  });

  it('renders as helm template renders the archive helm pull wrote', () => {
    const render = createChartRenderer({ helm: found.helm, fetch: options() });
    const output = render(request(`oci://${registry.host}/charts`, '1.x'));
    expect(output.ok).toBe(true);
    expect(output.ok && output.manifest).toContain('helm.sh/chart: webapp-1.5.0');
    expect(output.ok && output.manifest).toBe(helmTemplate(helmPull(`oci://${registry.host}/charts/webapp`, '1.x')));
  });

  it('refuses a blob whose digest is not the one its manifest names, and keeps nothing', () => {
    const opts = options();
    const fetched = fetchChart(`oci://${registry.host}/tampered`, 'webapp', '1.4.0', opts);
    expect('reason' in fetched && fetched.reason).toMatch(
      /^chart webapp 1\.4\.0: the chart layer of 127\.0\.0\.1:\d+\/tampered\/webapp:1\.4\.0 has digest sha256:[0-9a-f]{64} \(\d+ bytes\), its manifest says sha256:[0-9a-f]{64} \(\d+ bytes\)$/,
    );
    expect(readdirSync(opts.cacheDir)).toEqual([]);
  });

  it('applies the same private-address guard as https fetches, on the blob redirect too', () => {
    const refused = fetchChart(
      `oci://${registry.host}/charts`,
      'webapp',
      '1.4.0',
      options({ allowPrivate: ['127.0.0.1'] }),
    );
    expect('reason' in refused && refused.reason).toMatch(
      /\/blobs\/sha256:[0-9a-f]{64}: 127\.0\.0\.2 is a private or internal address \(DRIFTBACK_FETCH_ALLOW_PRIVATE does not name it\)$/,
    );
    const https = fetchChart(`oci://${registry.host}/charts`, 'webapp', '1.4.0', options({ plainHttp: [] }));
    expect('reason' in https && https.reason).toMatch(
      /^chart webapp 1\.4\.0: https:\/\/127\.0\.0\.1:\d+\/v2\/charts\/webapp\/manifests\/1\.4\.0: /,
    );
  });
});

describe('a chart of a private OCI repository', () => {
  const credentialsFile = (password: string) =>
    registry.credentials(
      `- url: oci://${registry.host}/private\n  username: ${USER.username}\n  password: ${password}\n`,
    );

  it('says which host needs credentials when none are configured', () => {
    const render = createChartRenderer({ helm: found.helm, fetch: options() });
    expect(render(request(`oci://${registry.host}/private`, '1.4.0'))).toEqual({
      ok: false,
      reason: `chart webapp 1.4.0: authentication required (configure credentials for ${registry.host})`,
    });
  });

  it('renders with the configured credentials; they never follow the blob redirect to another host', () => {
    // The stand-in's blob host refuses any request that brings an Authorization header along.
    const credentials = credentialsFile(USER.password);
    const render = createChartRenderer({ helm: found.helm, fetch: options({ credentials }) });
    const output = render(request(`oci://${registry.host}/private`, '1.4.0'));
    expect(output.ok).toBe(true);
    const login = ['--username', USER.username, '--password', USER.password];
    const pulled = helmPull(`oci://${registry.host}/private/webapp`, '1.4.0', login);
    expect(output.ok && output.manifest).toBe(helmTemplate(pulled));
  });

  it('says the credentials were refused when they are wrong, without printing them', () => {
    const credentials = credentialsFile('wrong-password');
    const fetched = fetchChart(`oci://${registry.host}/private`, 'webapp', '1.4.0', options({ credentials }));
    expect(fetched).toEqual({
      reason: `chart webapp 1.4.0: ${registry.host} refused the configured credentials (HTTP 401)`,
    });
  });

  it('keeps a private chart apart in the cache: a fetch without credentials is not served from it', () => {
    const credentials = credentialsFile(USER.password);
    const cacheDir = registry.tempDir('chart-cache-');
    expect(
      'path' in fetchChart(`oci://${registry.host}/private`, 'webapp', '1.4.0', options({ cacheDir, credentials })),
    ).toBe(true);
    expect(fetchChart(`oci://${registry.host}/private`, 'webapp', '1.4.0', options({ cacheDir }))).toEqual({
      reason: `chart webapp 1.4.0: authentication required (configure credentials for ${registry.host})`,
    });
  });
});

describe('every declaration of an OCI chart, fetched and rendered as helm template renders it', () => {
  const live = { items: [], server: { gitVersion: 'v1.32.3', resources: [] } };
  const flux = { name: 'prod', path: 'clusters/prod', defaultNamespace: 'default', controller: 'flux' as const };
  const argo = { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' as const };
  const release = (spec: string) =>
    `apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: webapp\n  namespace: shop\nspec:\n  interval: 10m\n${spec}`;
  const theirs = (version: string) =>
    helmTemplateObjects('webapp', helmPull(`oci://${registry.host}/charts/webapp`, version), [
      '--namespace',
      'shop',
      '--no-hooks',
      '--include-crds',
      '--kube-version',
      'v1.32.3',
    ]);
  const ours = (files: Map<string, string>, target: typeof flux | typeof argo, snapshot: typeof live = live) => {
    const charts = createChartRenderer({ helm: found.helm, fetch: options() });
    const rendered = renderCluster(files, target, { live: snapshot, charts });
    expect(rendered.errors).toEqual([]);
    const controllers = ['HelmRelease', 'HelmRepository', 'OCIRepository', 'Application'];
    return rendered.objects.map((d) => d.object).filter((o) => !controllers.includes(o.kind!));
  };

  it('a Flux HelmRelease with chartRef to an OCIRepository (semver range)', () => {
    const files = new Map([
      [
        'clusters/prod/oci.yaml',
        `apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: webapp\n  namespace: shop\nspec:\n  interval: 10m\n  url: oci://${registry.host}/charts/webapp\n  ref:\n    semver: 1.x\n`,
      ],
      ['clusters/prod/release.yaml', release('  chartRef:\n    kind: OCIRepository\n    name: webapp\n')],
    ]);
    expectSame(ours(files, flux), theirs('1.5.0'), 'shop');
  });

  it('a Flux HelmRelease with chartRef to an OCIRepository without ref: the tag latest, as source-controller pulls', () => {
    const oci = (repository: string) =>
      `apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: webapp\n  namespace: shop\nspec:\n  interval: 10m\n  url: oci://${registry.host}/${repository}/webapp\n`;
    const chartRef = release('  chartRef:\n    kind: OCIRepository\n    name: webapp\n');
    const tagged = new Map([
      ['clusters/prod/oci.yaml', oci('tagged')],
      ['clusters/prod/release.yaml', chartRef],
    ]);
    // `latest` is on 1.4.0 although 1.5.0 is the highest version.
    expectSame(ours(tagged, flux), theirs('1.4.0'), 'shop');
    const untagged = new Map([
      ['clusters/prod/oci.yaml', oci('charts')],
      ['clusters/prod/release.yaml', chartRef],
    ]);
    const charts = createChartRenderer({ helm: found.helm, fetch: options() });
    const rendered = renderCluster(untagged, flux, { live, charts });
    expect(rendered.objects.some((d) => d.key.kind === 'Deployment')).toBe(false);
    expect(rendered.notes.map((n) => n.message)).toContain(
      `HelmRelease shop/webapp: reported, not rendered: chart webapp latest: ${registry.host}/charts/webapp has no tag the version allows`,
    );
  });

  it('a Flux HelmRelease with chartRef to an OCIRepository pinned by manifest digest', () => {
    const digest = pushedDigests.get('1.4.0')!;
    const files = new Map([
      [
        'clusters/prod/oci.yaml',
        `apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: webapp\n  namespace: shop\nspec:\n  interval: 10m\n  url: oci://${registry.host}/charts/webapp\n  ref:\n    tag: 1.5.0\n    digest: ${digest}\n`,
      ],
      ['clusters/prod/release.yaml', release('  chartRef:\n    kind: OCIRepository\n    name: webapp\n')],
    ]);
    expectSame(ours(files, flux), theirs('1.4.0'), 'shop');
    const other = fetchChart(`oci://${registry.host}/charts`, 'webapp', `sha256:${'0'.repeat(64)}`, options());
    expect(other).toEqual({
      reason: `chart webapp sha256:${'0'.repeat(64)}: ${registry.host}/charts/webapp@sha256:${'0'.repeat(64)} does not exist`,
    });
  });

  it('a Flux HelmRelease with a chart of an OCI HelmRepository', () => {
    const files = new Map([
      [
        'clusters/prod/repo.yaml',
        `apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: acme\n  namespace: shop\nspec:\n  type: oci\n  interval: 10m\n  url: oci://${registry.host}/charts\n`,
      ],
      [
        'clusters/prod/release.yaml',
        release(
          '  chart:\n    spec:\n      chart: webapp\n      version: 1.4.0\n      sourceRef:\n        kind: HelmRepository\n        name: acme\n',
        ),
      ],
    ]);
    expectSame(ours(files, flux), theirs('1.4.0'), 'shop');
  });

  it('an Argo CD Application whose repoURL is a registry without a scheme', () => {
    const app = `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: webapp\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: ${registry.host}/charts\n    chart: webapp\n    targetRevision: 1.4.0\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: shop\n`;
    expectSame(ours(new Map([['apps/webapp.yaml', app]]), argo), theirs('1.4.0'), 'shop');
  });

  it('kustomize helmCharts with an oci:// repo, under an Argo CD Application with --enable-helm', () => {
    const argocdCm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'argocd-cm', namespace: 'argocd' },
      data: { 'kustomize.buildOptions': '--enable-helm' },
    };
    const app = `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: web\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: https://github.com/acme/gitops.git\n    targetRevision: main\n    path: apps/web\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: shop\n`;
    const kustomization = `helmCharts:\n  - name: webapp\n    repo: oci://${registry.host}/charts\n    version: 1.4.0\n    releaseName: webapp\n    namespace: shop\n    includeCRDs: true\n`;
    const files = new Map([
      ['apps/app.yaml', app],
      ['apps/web/kustomization.yaml', kustomization],
    ]);
    const snapshot = { ...live, items: [argocdCm] as never[] };
    expectSame(ours(files, argo, snapshot), theirs('1.4.0'), 'shop');
  });
});
