// A Kubernetes API stand-in: a node http server with the recorded discovery documents, object
// lists paged with limit/continue, Status objects for errors, a bearer-token check, and switches
// for the failures a real cluster produces (403 for a type, 410 mid-list, a slow type, 5xx).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixturePath } from '../fixtures.js';
import { groupOf, type KubeObject } from '../../../src/core/model/index.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const CRD_GROUP = 'kustomize.toolkit.fluxcd.io';

export interface StandInOptions {
  /** Bearer token every request must carry. */
  token: string;
  objects: KubeObject[];
  /** `apps/v1/statefulsets`: listing answers 403 Forbidden. */
  forbidden?: string[];
  /** The first request that carries a continue token answers 410 Expired. */
  expireOnce?: string[];
  /** The first `times` list requests of `resource` wait `delayMs` before answering. */
  slow?: { resource: string; delayMs: number; times: number };
  /** The first `times` list requests of each of these answer 503. */
  unavailable?: { resources: string[]; times: number };
  /** Group versions whose discovery document answers 503, as an aggregated API that is down. */
  brokenDiscovery?: string[];
  gitVersion?: string;
}

export interface KubeApiStandIn {
  url: string;
  /** Every request path with its query, in order. */
  requests: string[];
  close(): Promise<void>;
}

interface ServedResource {
  group: string;
  version: string;
  groupVersion: string;
  name: string;
  kind: string;
  namespaced: boolean;
}

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Discovery: the recorded documents, then the derived ones in ./discovery (groupVersion → APIResourceList). */
export function loadDiscovery(): { api: any; apis: any; lists: Map<string, any> } {
  const recorded = fixturePath('discovery', 'kubernetes');
  const lists = new Map<string, any>();
  lists.set('v1', readJson(join(recorded, 'api__v1.json')));
  lists.set('apps/v1', readJson(join(recorded, 'apis__apps__v1.json')));
  for (const file of readdirSync(join(HERE, 'discovery')).filter((name) => name.endsWith('.json'))) {
    const doc = readJson(join(HERE, 'discovery', file));
    lists.set(doc.groupVersion, doc);
  }
  const apis = readJson(join(recorded, 'apis.json'));
  apis.groups.push({
    name: CRD_GROUP,
    preferredVersion: { groupVersion: `${CRD_GROUP}/v1`, version: 'v1' },
    versions: [{ groupVersion: `${CRD_GROUP}/v1`, version: 'v1' }],
  });
  return { api: readJson(join(recorded, 'api.json')), apis, lists };
}

export async function startKubeApiStandIn(options: StandInOptions): Promise<KubeApiStandIn> {
  const discovery = loadDiscovery();
  const served = servedResources(discovery.apis, discovery.lists);
  const store = indexObjects(options.objects, served);
  const requests: string[] = [];
  const expired = new Set<string>();
  const counts = new Map<string, number>();
  let resourceVersion = 1000;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push(url.pathname + url.search);
    if (req.headers.authorization !== `Bearer ${options.token}`)
      return status(res, 401, 'Unauthorized', 'Unauthorized');
    const path = url.pathname;
    if (path === '/version')
      return json(res, 200, {
        major: '1',
        minor: '31',
        gitVersion: options.gitVersion ?? 'v1.31.2',
        platform: 'linux/amd64',
      });
    if (path === '/api') return json(res, 200, discovery.api);
    if (path === '/apis') return json(res, 200, discovery.apis);
    const route = parsePath(path);
    if (!route) return status(res, 404, 'NotFound', 'the server could not find the requested resource');
    if (!route.resource && options.brokenDiscovery?.includes(route.groupVersion)) {
      return status(
        res,
        503,
        'ServiceUnavailable',
        `the server is currently unable to handle the request (${route.groupVersion} is an aggregated API that is not available)`,
      );
    }
    if (!route.resource) {
      const doc = discovery.lists.get(route.groupVersion) ?? {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: route.groupVersion,
        resources: [],
      };
      return json(res, 200, doc);
    }
    const type = served.find((r) => r.groupVersion === route.groupVersion && r.name === route.resource);
    if (!type) return status(res, 404, 'NotFound', 'the server could not find the requested resource');
    const id = `${type.groupVersion}/${type.name}`;
    const groupLabel = `"${type.group}"`;
    if (options.forbidden?.includes(id)) {
      const where = route.namespace ? `in the namespace "${route.namespace}"` : 'at the cluster scope';
      return status(
        res,
        403,
        'Forbidden',
        `${type.name}${type.group ? '.' + type.group : ''} is forbidden: User "system:serviceaccount:driftback:driftback-agent" cannot list resource "${type.name}" in API group ${groupLabel} ${where}`,
      );
    }
    const count = (counts.get(id) ?? 0) + 1;
    counts.set(id, count);
    if (options.unavailable?.resources.includes(id) && count <= options.unavailable.times) {
      return status(res, 503, 'ServiceUnavailable', 'the server is currently unable to handle the request');
    }
    if (options.slow?.resource === id && count <= options.slow.times)
      await new Promise((resolve) => setTimeout(resolve, options.slow!.delayMs));
    if (res.destroyed) return;

    const all = store.get(id) ?? [];
    if (route.name) {
      const found = all.find(
        (o) => o.metadata.name === route.name && (o.metadata.namespace ?? '') === (route.namespace ?? ''),
      );
      return found ? json(res, 200, found) : status(res, 404, 'NotFound', `${type.name} "${route.name}" not found`);
    }
    const token = url.searchParams.get('continue');
    if (token && options.expireOnce?.includes(id) && !expired.has(id)) {
      expired.add(id);
      return status(
        res,
        410,
        'Expired',
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results.',
      );
    }
    const selector = url.searchParams.get('labelSelector') ?? '';
    const matching =
      route.namespace || selector
        ? all.filter(
            (o) => (!route.namespace || o.metadata.namespace === route.namespace) && matchesSelector(o, selector),
          )
        : all;
    const offset = token ? Number(JSON.parse(Buffer.from(token, 'base64').toString()).start) : 0;
    const limit = Number(url.searchParams.get('limit') ?? '0') || matching.length;
    const page = matching.slice(offset, offset + limit);
    const rest = matching.length - offset - page.length;
    resourceVersion++;
    const metadata: Record<string, unknown> = { resourceVersion: String(resourceVersion) };
    if (rest > 0) {
      metadata.continue = Buffer.from(
        JSON.stringify({ v: 'meta.k8s.io/v1', rv: resourceVersion, start: offset + page.length }),
      ).toString('base64');
      metadata.remainingItemCount = rest;
    }
    // Built-in types' list items carry no apiVersion/kind; custom resources' items do.
    const items = type.group === CRD_GROUP ? page : page.map(({ apiVersion: _a, kind: _k, ...item }) => item);
    return json(res, 200, { kind: `${type.kind}List`, apiVersion: type.groupVersion, metadata, items });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => status(res, 500, 'InternalError', error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function servedResources(apis: any, lists: Map<string, any>): ServedResource[] {
  const out: ServedResource[] = [];
  const preferred = ['v1', ...apis.groups.map((g: any) => g.preferredVersion.groupVersion as string)];
  for (const groupVersion of preferred) {
    const doc = lists.get(groupVersion);
    if (!doc) continue;
    const [group, version] = groupVersion.includes('/') ? groupVersion.split('/') : ['', groupVersion];
    for (const r of doc.resources) {
      if (!r.name.includes('/'))
        out.push({ group, version, groupVersion, name: r.name, kind: r.kind, namespaced: r.namespaced });
    }
  }
  return out;
}

/** Places each object under its type at the group's preferred version, as the server converts it. */
function indexObjects(objects: KubeObject[], served: ServedResource[]): Map<string, KubeObject[]> {
  const store = new Map<string, KubeObject[]>();
  const keys = new Set<string>();
  let uid = 0;
  for (const source of objects) {
    const type = served.find((r) => r.group === groupOf(source.apiVersion) && r.kind === source.kind);
    if (!type) throw new Error(`stand-in: no served type for ${source.apiVersion} ${source.kind}`);
    const object = structuredClone(source);
    object.apiVersion = type.groupVersion;
    if (type.namespaced) object.metadata.namespace ??= 'default';
    else delete object.metadata.namespace;
    object.metadata.uid ??= `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`;
    object.metadata.resourceVersion ??= String(500 + uid);
    const id = `${type.groupVersion}/${type.name}`;
    const list = store.get(id) ?? [];
    const key = `${id}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    if (keys.has(key)) throw new Error(`stand-in: duplicate ${key}`);
    keys.add(key);
    list.push(object);
    store.set(id, list);
  }
  // etcd returns keys in order: namespace, then name.
  for (const list of store.values()) {
    list.sort((a, b) =>
      `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
        `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
      ),
    );
  }
  return store;
}

interface Route {
  groupVersion: string;
  namespace?: string;
  resource?: string;
  name?: string;
}

/** `/api/v1[/namespaces/<ns>]/<resource>[/<name>]` and `/apis/<g>/<v>/…`. */
function parsePath(path: string): Route | undefined {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  let groupVersion: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 2) [groupVersion, rest] = [parts[1], parts.slice(2)];
  else if (parts[0] === 'apis' && parts.length >= 3) [groupVersion, rest] = [`${parts[1]}/${parts[2]}`, parts.slice(3)];
  else return undefined;
  if (rest.length === 0) return { groupVersion };
  if (rest[0] === 'namespaces' && rest.length >= 3)
    return { groupVersion, namespace: rest[1], resource: rest[2], name: rest[3] };
  return { groupVersion, resource: rest[0], name: rest[1] };
}

/** Equality (`a=b`, `a==b`), inequality (`a!=b`) and existence (`a`, `!a`) terms, comma-joined. */
function matchesSelector(object: KubeObject, selector: string): boolean {
  const labels = object.metadata.labels ?? {};
  return selector
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean)
    .every((term) => {
      const ne = term.split('!=');
      if (ne.length === 2) return labels[ne[0].trim()] !== ne[1].trim();
      const eq = term.split(/==?/);
      if (eq.length === 2) return labels[eq[0].trim()] === eq[1].trim();
      if (term.startsWith('!')) return !(term.slice(1) in labels);
      return term in labels;
    });
}

function json(res: ServerResponse, code: number, body: unknown): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function status(res: ServerResponse, code: number, reason: string, message: string): void {
  json(res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/** A kubeconfig for the stand-in: plain http needs `insecure-skip-tls-verify` in client-node. */
export function standInKubeconfig(url: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: stand-in',
    '  cluster:',
    `    server: ${url}`,
    '    insecure-skip-tls-verify: true',
    'users:',
    '- name: agent',
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: stand-in',
    '  context: {cluster: stand-in, user: agent}',
    'current-context: stand-in',
    '',
  ].join('\n');
}
