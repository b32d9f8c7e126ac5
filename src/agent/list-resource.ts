// Paged listing of one type: `limit` + `continue`, one page in memory at a time. A `410 Expired`
// continue token (the server compacted past it) restarts that list once, skipping the objects
// already emitted; any other failure becomes a `scope.errors` entry and the run goes on.
import { isPlainObject } from '../core/model/index.js';
import type { KubeTransport, KubeResponse } from './kube-transport.js';
import { resourceId, type ApiResource, type ListError } from './types.js';

export interface ListRequest {
  resource: ApiResource;
  /** Namespaces to list; empty = all. */
  namespaces: string[];
  labelSelector?: string;
  /** Page size (default 500, as kubectl). */
  pageSize: number;
  /** Receives every item; awaited, so a slow consumer slows the listing instead of filling memory. */
  onItem(item: unknown): Promise<void> | void;
}

export type ListOutcome = { type: 'listed'; items: number } | { type: 'failed'; error: ListError };

export function basePath(resource: ApiResource): string {
  return resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`;
}

export async function listResource(transport: KubeTransport, request: ListRequest): Promise<ListOutcome> {
  const { resource, namespaces } = request;
  if (namespaces.length === 0) return listPath(transport, request, `${basePath(resource)}/${resource.resource}`);
  if (resource.namespaced) {
    let items = 0;
    for (const namespace of namespaces) {
      const outcome = await listPath(
        transport,
        request,
        `${basePath(resource)}/namespaces/${encodeURIComponent(namespace)}/${resource.resource}`,
      );
      if (outcome.type === 'failed') return outcome;
      items += outcome.items;
    }
    return { type: 'listed', items };
  }
  // A namespace-scoped run still records its Namespace objects (their labels and annotations are
  // managed in Git), but no other cluster-scoped type: those are outside the scope.
  if (resource.group === '' && resource.resource === 'namespaces') {
    let found = 0;
    for (const namespace of namespaces) {
      const response = await transport.get(`${basePath(resource)}/namespaces/${encodeURIComponent(namespace)}`);
      if (response.type === 'status' && response.code === 404) continue;
      if (response.type !== 'ok') return { type: 'failed', error: toListError(resource, response) };
      await request.onItem(response.body);
      found++;
    }
    return { type: 'listed', items: found };
  }
  return { type: 'listed', items: 0 };
}

async function listPath(transport: KubeTransport, request: ListRequest, path: string): Promise<ListOutcome> {
  let restarted = false;
  let seen: Set<string> | undefined;
  let emitted = 0;
  let token: string | undefined;
  for (;;) {
    const response = await transport.get(path, {
      limit: String(request.pageSize),
      continue: token,
      labelSelector: request.labelSelector,
    });
    if (response.type === 'status' && response.code === 410 && token && !restarted) {
      // Restart from the beginning once; objects emitted before are skipped by name.
      restarted = true;
      token = undefined;
      continue;
    }
    if (response.type !== 'ok') return { type: 'failed', error: toListError(request.resource, response) };
    const body = response.body;
    const items = isPlainObject(body) && Array.isArray(body.items) ? (body.items as unknown[]) : [];
    for (const item of items) {
      const name = nameOf(item);
      if (restarted && seen?.has(name)) continue;
      if (!restarted) (seen ??= new Set()).add(name);
      await request.onItem(item);
      emitted++;
    }
    const next = isPlainObject(body) && isPlainObject(body.metadata) ? body.metadata.continue : undefined;
    if (typeof next !== 'string' || next === '') return { type: 'listed', items: emitted };
    token = next;
  }
}

function nameOf(item: unknown): string {
  const metadata = isPlainObject(item) && isPlainObject(item.metadata) ? item.metadata : {};
  return `${String(metadata.namespace ?? '')}/${String(metadata.name ?? '')}`;
}

export function toListError(resource: ApiResource, response: Exclude<KubeResponse, { type: 'ok' }>): ListError {
  const code = response.type === 'status' ? ` (${response.code})` : '';
  return {
    resource: resourceId(resource),
    group: resource.group,
    kind: resource.kind,
    reason: response.reason,
    message: `${response.message}${code}`,
  };
}
