// OCI registry authentication as Helm (oras-go) does it, against the registry stand-in: an identity
// token (`docker login`'s refresh token: the username `<token>` with the token as password, or
// `identityToken`) is exchanged at the token realm by an OAuth2 POST (grant_type=refresh_token), and
// sent as Basic credentials on a GET where the realm refuses the POST; Docker Hub's `docker.io` is
// pulled from registry-1.docker.io with one credential key for both names. Host names are reached on
// loopback through `connectTo`, never on the network.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartRequest } from '../../src/core/charts/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { download } from '../../src/helm/download.js';
import { fetchChart, type ChartFetchOptions } from '../../src/helm/fetch.js';
import { tokenScopes } from '../../src/helm/oci.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { startRegistry } from '../support/oci-registry/index.js';
import { openOciSession, type OciSession } from '../support/oci-registry/session.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);

const USER = { username: 'ci-bot', password: 'n0t-a-real-secret' };
const IDENTITY = 'refresh-7f3a9c';
/** Realm takes the OAuth2 POST; realm answers every POST 404 (as GCR's); Docker Hub's names. */
let oauth: OciSession;
let noPost: OciSession;
let hub: OciSession;
/** A realm whose challenges name a second scope, and the file it logs its requests to. */
let scoped: OciSession;
let scopedLog: string;
let archivePath: string;

/** The stand-in started with `extra`, Helm logged in, the archive pushed to each repository. */
async function pushedTo(extra: object, repositories: string[]): Promise<OciSession> {
  const common = { privatePrefixes: ['private/', 'acme/'], user: USER, identityToken: IDENTITY };
  const session = openOciSession(await startRegistry({ ...common, ...extra }));
  if (!archivePath) {
    const dir = session.tempDir('charts-');
    session.helm(['package', join(REPO_ROOT, 'test/fixtures/charts/webapp'), '--version', '1.4.0', '-d', dir]);
    archivePath = join(dir, 'webapp-1.4.0.tgz');
  }
  session.login(USER);
  for (const repository of repositories) session.push(archivePath, repository);
  return session;
}

beforeAll(async () => {
  oauth = await pushedTo({}, ['private']);
  noPost = await pushedTo({ refusePost: 404 }, ['private']);
  hub = await pushedTo({ hostnames: ['registry-1.docker.io', '127.0.0.1'] }, ['bitnamicharts', 'acme']);
  scopedLog = join(oauth.tempDir('realm-'), 'requests.log');
  scoped = await pushedTo({ alsoScope: 'registry:catalog:*', requestLog: scopedLog }, ['charts']);
});
// The session that packaged the archive stops last: its directory holds it.
afterAll(() => [scoped, hub, noPost, oauth].forEach((r) => r?.stop()));

const archive = () => readFileSync(archivePath);

const options = (registry: OciSession, extra: Partial<ChartFetchOptions> = {}) => registry.options(extra);
const credentials = (text: string) => oauth.credentials(text);

describe('an identity token for a private OCI registry', () => {
  const asDockerStores = (registry: OciSession, token: string) =>
    credentials(`- url: oci://${registry.host}/private\n  username: <token>\n  password: ${token}\n`);

  it('is exchanged at the realm by the OAuth2 POST (grant_type=refresh_token), as oras-go does', () => {
    // This realm takes the identity token only in the POST: a GET with it would be refused.
    const fetched = fetchChart(`oci://${oauth.host}/private`, 'webapp', '1.4.0', {
      ...options(oauth),
      credentials: asDockerStores(oauth, IDENTITY),
    });
    expect('bytes' in fetched && fetched.bytes).toEqual(archive());
    const named = credentials(`- url: oci://${oauth.host}/private\n  identityToken: ${IDENTITY}\n`);
    const again = fetchChart(`oci://${oauth.host}/private`, 'webapp', '1.4.0', {
      ...options(oauth),
      credentials: named,
    });
    expect('bytes' in again && again.bytes).toEqual(archive());
  });

  it('goes to a GET with Basic credentials where the realm refuses the POST', () => {
    const fetched = fetchChart(`oci://${noPost.host}/private`, 'webapp', '1.4.0', {
      ...options(noPost),
      credentials: asDockerStores(noPost, IDENTITY),
    });
    expect('bytes' in fetched && fetched.bytes).toEqual(archive());
  });

  it('says the credentials were refused when the identity token is wrong, without printing it', () => {
    for (const registry of [oauth, noPost]) {
      const fetched = fetchChart(`oci://${registry.host}/private`, 'webapp', '1.4.0', {
        ...options(registry),
        credentials: asDockerStores(registry, 'refresh-revoked'),
      });
      expect(fetched).toEqual({
        reason: `chart webapp 1.4.0: ${registry.host} refused the configured credentials (HTTP 401)`,
      });
    }
  });

  it('renders the private chart as the chart it fetched', () => {
    const render = createChartRenderer({
      helm: found.helm,
      fetch: { ...options(oauth), credentials: asDockerStores(oauth, IDENTITY) },
    });
    const request: ChartRequest = {
      where: 'webapp',
      chart: { type: 'repository', url: `oci://${oauth.host}/private`, name: 'webapp', version: '1.4.0' },
      releaseName: 'webapp',
      namespace: 'shop',
      valueFiles: [],
      set: [],
      apiVersions: [],
      kubeVersion: 'v1.32.3',
      includeCrds: true,
    };
    const output = render(request);
    expect(output.ok && output.manifest).toContain('helm.sh/chart: webapp-1.4.0');
  });
});

describe("Docker Hub's docker.io", () => {
  const hubOptions = (extra: Partial<ChartFetchOptions> = {}) =>
    options(hub, {
      plainHttp: ['registry-1.docker.io'],
      connectTo: { 'registry-1.docker.io': hub.host, 'docker.io': hub.host },
      ...extra,
    });

  it('is a name the stand-in does not serve: a request for docker.io itself is misdirected', () => {
    const got = download('http://docker.io/v2/', { allowPrivate: ['127.0.0.1'], connectTo: { 'docker.io': hub.host } });
    expect('reason' in got && got.status).toBe(421);
  });

  it('is pulled from registry-1.docker.io, as Helm does, into one cache with the long name', () => {
    const opts = hubOptions();
    const short = fetchChart('oci://docker.io/bitnamicharts', 'webapp', '1.4.0', opts);
    expect('bytes' in short && short.bytes).toEqual(archive());
    // The same chart under its long name is the cached archive: no request reaches the registry.
    const long = fetchChart('oci://registry-1.docker.io/bitnamicharts', 'webapp', '1.4.0', {
      ...opts,
      connectTo: {},
      allowPrivate: [],
    });
    expect(long).toEqual(short);
  });

  it('takes the credentials of an entry for either name', () => {
    for (const [entry, chart] of [
      ['docker.io/acme', 'registry-1.docker.io/acme'],
      ['registry-1.docker.io/acme', 'docker.io/acme'],
    ]) {
      const creds = credentials(`- url: oci://${entry}\n  username: ${USER.username}\n  password: ${USER.password}\n`);
      const fetched = fetchChart(`oci://${chart}`, 'webapp', '1.4.0', hubOptions({ credentials: creds }));
      expect('bytes' in fetched && fetched.bytes).toEqual(archive());
    }
    expect(fetchChart('oci://docker.io/acme', 'webapp', '1.4.0', hubOptions())).toEqual({
      reason: 'chart webapp 1.4.0: authentication required (configure credentials for registry-1.docker.io)',
    });
  });

  it('renders an Argo CD Application whose repoURL is docker.io without a scheme', () => {
    const app = `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: webapp\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: docker.io/bitnamicharts\n    chart: webapp\n    targetRevision: 1.4.0\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: shop\n`;
    const charts = createChartRenderer({ helm: found.helm, fetch: hubOptions() });
    const target = { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' as const };
    const live = { items: [], server: { gitVersion: 'v1.32.3', resources: [] } };
    const rendered = renderCluster(new Map([['apps/webapp.yaml', app]]), target, { live, charts });
    expect(rendered.errors).toEqual([]);
    expect(rendered.objects.some((d) => d.key.kind === 'Deployment' && d.key.namespace === 'shop')).toBe(true);
  });
});

describe('the scopes a token is asked for', () => {
  it("are the challenge's merged with the repository's pull, actions of one resource joined, as oras-go merges them", () => {
    const repo = 'charts/webapp';
    expect(tokenScopes(repo, undefined)).toEqual(['repository:charts/webapp:pull']);
    expect(tokenScopes(repo, 'repository:charts/webapp:pull')).toEqual(['repository:charts/webapp:pull']);
    expect(tokenScopes(repo, 'repository:charts/webapp:push')).toEqual(['repository:charts/webapp:pull,push']);
    expect(tokenScopes(repo, 'repository:charts/webapp:* registry:catalog:*')).toEqual([
      'registry:catalog:*',
      'repository:charts/webapp:*',
    ]);
    expect(tokenScopes(repo, 'repository:base/library:pull')).toEqual([
      'repository:base/library:pull',
      'repository:charts/webapp:pull',
    ]);
  });

  it('go to the realm one scope parameter each on a GET, space-separated in the OAuth2 POST', () => {
    const read = () =>
      readFileSync(scopedLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { method: string; scopes: string[]; basic?: boolean });
    const before = read().length;
    const scopes = ['registry:catalog:*', 'repository:charts/webapp:pull'];
    const anonymous = fetchChart(`oci://${scoped.host}/charts`, 'webapp', '1.4.0', options(scoped));
    expect('bytes' in anonymous && anonymous.bytes).toEqual(archive());
    const identity = scoped.credentials(`- url: oci://${scoped.host}/charts\n  identityToken: ${IDENTITY}\n`);
    const exchanged = fetchChart(
      `oci://${scoped.host}/charts`,
      'webapp',
      '1.4.0',
      options(scoped, { credentials: identity }),
    );
    expect('bytes' in exchanged && exchanged.bytes).toEqual(archive());
    expect(read().slice(before)).toEqual([
      { method: 'GET', service: 'oci-stand-in', scopes, basic: false },
      { method: 'POST', grant: 'refresh_token', service: 'oci-stand-in', clientId: 'driftback', scopes },
    ]);
  });
});
