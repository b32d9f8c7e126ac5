// One snapshot run: discovery, then each selected type listed page by page, every object
// sanitized and streamed out. Types that fail are recorded in `scope.errors` (the snapshot is then
// `complete: false`); when the deadline passes, the types not yet listed are recorded too and the
// document is still finished, so a partial snapshot is valid and says what it lacks.
import { discoverResources, type Discovered } from './discovery.js';
import type { KubeTransport } from './kube-transport.js';
import { listResource } from './list-resource.js';
import { isGroupOutOfScope, selectResources } from './resource-filter.js';
import { sanitizeObject } from './sanitize.js';
import { SnapshotWriter } from './snapshot-writer.js';
import { resourceId, type ApiResource, type ListError, type SnapshotScope, type TypeFigures } from './types.js';

export interface SnapshotRequest {
  transport: KubeTransport;
  scope: SnapshotScope;
  repository: string;
  cluster: string;
  /** RFC 3339 time the run started. */
  capturedAt: string;
  agentVersion: string;
  /** Per-cluster key for Secret hashes; required unless `scope.secrets` is `omit`. */
  hashKey?: Buffer;
  /** Items per list request (default 500). */
  pageSize?: number;
  out: NodeJS.WritableStream;
  /** Epoch milliseconds; checked between types (requests check it too). */
  deadlineMs: number;
  now(): number;
  /** Called after each type, for a progress line. */
  onType?(figures: TypeFigures): void;
}

export interface SnapshotSummary {
  items: number;
  bytes: number;
  complete: boolean;
  errors: ListError[];
  types: TypeFigures[];
}

export async function takeSnapshot(request: SnapshotRequest): Promise<SnapshotSummary> {
  const { transport, scope } = request;
  if (scope.secrets === 'hash' && !request.hashKey) throw new Error('Secrets are hashed, but no hash key was given');
  const discovered = await discoverResources(transport, (group) => isGroupOutOfScope(group, scope));
  const errors: ListError[] = [...discovered.errors];
  const writer = new SnapshotWriter(request.out);
  await beginDocument(writer, request, discovered);
  const types: TypeFigures[] = [];
  const selected = selectResources(discovered.resources, scope);
  // Types left out on purpose are named, so nothing of them is taken for absent from the cluster.
  const excluded = discovered.resources
    .filter((resource) => !selected.includes(resource))
    .map((resource) => ({ resource: resourceId(resource), group: resource.group, kind: resource.kind }));
  for (const resource of selected) {
    if (request.now() >= request.deadlineMs) {
      errors.push({
        resource: resourceId(resource),
        group: resource.group,
        kind: resource.kind,
        reason: 'DeadlineExceeded',
        message: 'the run deadline passed before this type was listed',
      });
      continue;
    }
    const listed = await writeType(request, writer, resource);
    if (listed.error) errors.push(listed.error);
    types.push(listed.figures);
    request.onType?.(listed.figures);
  }
  const complete = errors.length === 0;
  await writer.end({
    ...(scope.namespaces.length > 0 ? { namespaces: scope.namespaces } : {}),
    complete,
    errors,
    ...(excluded.length > 0 ? { excluded } : {}),
  });
  return {
    items: types.reduce((sum, t) => sum + t.items, 0),
    bytes: types.reduce((sum, t) => sum + t.bytes, 0),
    complete,
    errors,
    types,
  };
}

/** The document's header: who took it, when, and what the server serves. */
async function beginDocument(writer: SnapshotWriter, request: SnapshotRequest, discovered: Discovered): Promise<void> {
  await writer.begin({
    repository: request.repository,
    cluster: request.cluster,
    capturedAt: request.capturedAt,
    agent: { version: request.agentVersion },
    server: {
      ...(discovered.gitVersion ? { gitVersion: discovered.gitVersion } : {}),
      // What the server serves, and which kinds are namespaced: the App asks this, not a list of kinds.
      resources: discovered.resources.map(({ group, version, kind, resource, namespaced }) => ({
        group,
        version,
        kind,
        resource,
        namespaced,
      })),
    },
  });
}

/** One type listed page by page, each object sanitized and written; its figures, and why it failed if it did. */
async function writeType(
  request: SnapshotRequest,
  writer: SnapshotWriter,
  resource: ApiResource,
): Promise<{ figures: TypeFigures; error?: ListError }> {
  const figures: TypeFigures = { resource: resourceId(resource), items: 0, bytes: 0, owned: 0 };
  const outcome = await listResource(request.transport, {
    resource,
    namespaces: request.scope.namespaces,
    labelSelector: request.scope.labelSelector,
    pageSize: request.pageSize ?? 500,
    onItem: async (item) => {
      const result = sanitizeObject(item, resource, request.hashKey);
      if (result.type === 'owned') figures.owned++;
      if (result.type !== 'kept') return;
      figures.bytes += await writer.item(result.object);
      figures.items++;
    },
  });
  return outcome.type === 'failed' ? { figures, error: outcome.error } : { figures };
}
