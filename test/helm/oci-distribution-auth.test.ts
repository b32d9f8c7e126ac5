// Private charts on the distribution registry itself (Debian's `docker-registry`) with each of its
// authentication schemes, pushed by the pinned Helm after `helm registry login`, fetched and rendered
// by driftback with the App's chart credentials: htpasswd (a Basic challenge), and token
// authentication (a Bearer challenge naming a token server that signs ES256 JWTs the registry
// verifies against the server's certificate). A wrong or missing credential leaves that Application
// not rendered with a reason that says what to configure, and every other Application rendered; no
// message or log holds a password or a token. The identity token `docker login` would store (an OAuth2
// refresh token) is exchanged at the token server. Where the machine has no `docker-registry`, the
// registry stand-in plays the registry (and its own realm) and the same assertions run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderCluster } from '../../src/core/pipeline/index.js';
import type { ChartCredentials } from '../../src/helm/credentials.js';
import { fetchChart } from '../../src/helm/fetch.js';
import { locateHelm } from '../../src/helm/locate.js';
import { createChartRenderer } from '../../src/helm/renderer.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { basicAuthRegistry, tokenAuthRegistry, type SecuredRegistry } from '../support/oci-registry/secured.js';
import { openOciSession, type OciSession } from '../support/oci-registry/session.js';
import { pinnedHelm } from '../support/tools.js';

const found = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
if (!found.found) throw new Error(found.reason);
const helm = found.helm;

const USER = { username: 'chart-bot', password: 'pw-9d2f1c7e-not-real' };
const WRONG = 'pw-4b1a0e55-wrong';

/** An Argo CD Application of the chart webapp 1.4.0 from `repoURL`, deployed to the namespace `name`. */
function application(name: string, repoURL: string): string {
  return `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: ${name}\n  namespace: argocd\nspec:\n  project: default\n  source:\n    repoURL: ${repoURL}\n    chart: webapp\n    targetRevision: 1.4.0\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: ${name}\n`;
}

/** Everything the process wrote to the console or its standard streams while `run` ran, and its result. */
function captured<T>(run: () => T): { result: T; output: string } {
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true),
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => {}),
    ),
  ];
  try {
    const result = run();
    return { result, output: spies.flatMap((s) => s.mock.calls.map((c) => JSON.stringify(c))).join('\n') };
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
}

/** Renders one Application per entry (name → repoURL) with the App's credentials, if any. */
function renderApps(session: OciSession, apps: Record<string, string>, credentials?: ChartCredentials) {
  const files = new Map(Object.entries(apps).map(([name, url]) => [`apps/${name}.yaml`, application(name, url)]));
  const charts = createChartRenderer({ helm, fetch: session.options(credentials ? { credentials } : {}) });
  const target = { name: 'prod', path: 'apps', defaultNamespace: 'default', controller: 'argocd' as const };
  const live = { items: [], server: { gitVersion: 'v1.32.3', resources: [] } };
  const { result, output } = captured(() => renderCluster(files, target, { live, charts }));
  const deployments = result.objects.filter((d) => d.key.kind === 'Deployment').map((d) => d.key.namespace);
  return { result, output, deployments: deployments.sort(), notRendered: result.notRendered ?? [] };
}

/** Starts the registry, logs Helm in and pushes webapp 1.4.0 to each repository. */
async function pushedTo(registry: SecuredRegistry, repositories: string[]): Promise<OciSession> {
  const session = openOciSession(registry);
  try {
    const dir = session.tempDir('charts-');
    session.helm(['package', join(REPO_ROOT, 'test/fixtures/charts/webapp'), '--version', '1.4.0', '-d', dir]);
    session.login(USER);
    for (const repository of repositories) session.push(join(dir, 'webapp-1.4.0.tgz'), repository);
    return session;
  } catch (error) {
    session.stop();
    throw error;
  }
}

const entry = (host: string, path: string, password: string) =>
  `- url: oci://${host}/${path}\n  username: ${USER.username}\n  password: ${password}\n`;

describe.each([basicAuthRegistry(USER)])('$label', ({ start }) => {
  let session: OciSession;
  let registry: SecuredRegistry;
  beforeAll(async () => {
    registry = await start();
    session = await pushedTo(registry, ['private', 'team']);
  });
  afterAll(() => session?.stop());

  it('fetches the chart Helm pushed with the configured username and password, byte for byte', () => {
    const credentials = session.credentials(entry(session.host, 'private', USER.password));
    const fetched = fetchChart(`oci://${session.host}/private`, 'webapp', '1.4.0', session.options({ credentials }));
    const pulled = session.tempDir('pulled-');
    session.helm(['pull', `oci://${session.host}/private/webapp`, '--version', '1.4.0', '--plain-http', '-d', pulled]);
    expect('bytes' in fetched && fetched.bytes).toEqual(readFileSync(join(pulled, 'webapp-1.4.0.tgz')));
  });

  it('leaves only the Application whose credentials are wrong or missing not rendered, and says why', () => {
    const apps = { shop: `oci://${session.host}/private`, team: `oci://${session.host}/team` };
    const right = renderApps(session, apps, session.credentials(entry(session.host, '', USER.password)));
    expect(right.notRendered).toEqual([]);
    expect(right.deployments).toEqual(['shop', 'team']);

    const wrong = session.credentials(
      entry(session.host, 'private', WRONG) + entry(session.host, 'team', USER.password),
    );
    const refused = renderApps(session, apps, wrong);
    expect(refused.deployments).toEqual(['team']);
    expect(refused.notRendered.map((n) => [n.file, n.reason])).toEqual([
      ['apps/shop.yaml', `chart webapp 1.4.0: ${session.host} refused the configured credentials (HTTP 401)`],
    ]);

    const missing = renderApps(session, apps, session.credentials(entry(session.host, 'team', USER.password)));
    expect(missing.deployments).toEqual(['team']);
    expect(missing.notRendered.map((n) => n.reason)).toEqual([
      `chart webapp 1.4.0: authentication required (configure credentials for ${session.host})`,
    ]);
    for (const { result, output } of [right, refused, missing])
      for (const secret of [USER.password, WRONG, Buffer.from(`${USER.username}:${WRONG}`).toString('base64')])
        expect(JSON.stringify(result) + output).not.toContain(secret);
  });
});

describe.each([tokenAuthRegistry(USER, ['private/'])])('$label', ({ start }) => {
  let session: OciSession;
  let registry: SecuredRegistry;
  let requestsBefore = 0;
  beforeAll(async () => {
    registry = await start();
    session = await pushedTo(registry, ['private', 'public']);
  });
  afterAll(() => session?.stop());
  beforeEach(() => void (requestsBefore = registry.realmRequests().length));
  /** The realm's requests the test made. */
  const realmRequests = () => registry.realmRequests().slice(requestsBefore);
  /** webapp 1.4.0 of the private repository, fetched with `credentials`. */
  const fetchPrivate = (credentials: ChartCredentials) =>
    fetchChart(`oci://${session.host}/private`, 'webapp', '1.4.0', session.options({ credentials }));
  const refused = () => ({
    reason: `chart webapp 1.4.0: ${session.host} refused the configured credentials (HTTP 401)`,
  });
  afterEach(() => {
    for (const request of registry.realmRequests()) expect(JSON.stringify(request)).not.toContain(USER.password);
  });

  it("takes a token for the user at the realm, with the challenge's service and scope, and renders", () => {
    const credentials = session.credentials(entry(session.host, 'private', USER.password));
    const rendered = renderApps(session, { shop: `oci://${session.host}/private` }, credentials);
    expect(rendered.notRendered).toEqual([]);
    expect(rendered.deployments).toEqual(['shop']);
    expect(realmRequests()).toEqual([
      { method: 'GET', service: expect.any(String), scopes: ['repository:private/webapp:pull'], basic: true },
    ]);
    expect(realmRequests()[0]!.service).not.toBe('');
  });

  it('asks for an anonymous token for a public chart: no credentials are configured, none are sent', () => {
    const fetched = fetchChart(`oci://${session.host}/public`, 'webapp', '1.4.0', session.options());
    expect('bytes' in fetched).toBe(true);
    expect(realmRequests()).toEqual([
      { method: 'GET', service: expect.any(String), scopes: ['repository:public/webapp:pull'], basic: false },
    ]);
  });

  it('leaves only the private Application not rendered when its password is wrong or missing', () => {
    const apps = { shop: `oci://${session.host}/private`, web: `oci://${session.host}/public` };
    const refused = renderApps(session, apps, session.credentials(entry(session.host, 'private', WRONG)));
    expect(refused.deployments).toEqual(['web']);
    expect(refused.notRendered.map((n) => [n.file, n.reason])).toEqual([
      ['apps/shop.yaml', `chart webapp 1.4.0: ${session.host} refused the configured credentials (HTTP 401)`],
    ]);
    const missing = renderApps(session, apps);
    expect(missing.deployments).toEqual(['web']);
    expect(missing.notRendered.map((n) => n.reason)).toEqual([
      `chart webapp 1.4.0: authentication required (configure credentials for ${session.host})`,
    ]);
    for (const { result, output } of [refused, missing]) expect(JSON.stringify(result) + output).not.toContain(WRONG);
  });

  it('exchanges an identity token at the realm by the OAuth2 POST, and a revoked one is refused', async () => {
    const identity = await registry.identityToken();
    requestsBefore = registry.realmRequests().length;
    const stored = `- url: oci://${session.host}/private\n  username: <token>\n  password: ${identity}\n`;
    const rendered = renderApps(session, { shop: `oci://${session.host}/private` }, session.credentials(stored));
    expect(rendered.deployments).toEqual(['shop']);
    expect(realmRequests()).toEqual([
      {
        method: 'POST',
        grant: 'refresh_token',
        service: expect.any(String),
        clientId: 'driftback',
        scopes: ['repository:private/webapp:pull'],
      },
    ]);
    const revoked = session.credentials(`- url: oci://${session.host}/private\n  identityToken: refresh-revoked\n`);
    expect(fetchPrivate(revoked)).toEqual(refused());
    expect(JSON.stringify(rendered.result) + rendered.output).not.toContain(identity);
  });

  it('asks by the OAuth2 password grant where the realm refuses the password on a GET, as Helm retries', () => {
    registry.passwordGrantOnly(true);
    try {
      const credentials = session.credentials(entry(session.host, 'private', USER.password));
      const rendered = renderApps(session, { shop: `oci://${session.host}/private` }, credentials);
      expect(rendered.notRendered).toEqual([]);
      expect(rendered.deployments).toEqual(['shop']);
      const scopes = ['repository:private/webapp:pull'];
      expect(realmRequests()).toEqual([
        { method: 'GET', service: expect.any(String), scopes, basic: true },
        { method: 'POST', grant: 'password', service: expect.any(String), clientId: 'driftback', scopes },
      ]);
      const wrong = session.credentials(entry(session.host, 'private', WRONG));
      expect(fetchPrivate(wrong)).toEqual(refused());
    } finally {
      registry.passwordGrantOnly(false);
    }
  });
});
