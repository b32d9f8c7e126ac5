// Test inputs built from the real repositories in test/fixtures/upstream/manifests: desired objects with
// line-accurate source maps from plain YAML, and live objects as a cluster would return them after
// the applier applied them (managedFields included), ready for a case to change.
import { LineCounter, isMap, isSeq, parseAllDocuments, type Node } from 'yaml';
import {
  keyOf,
  toPointer,
  isPlainObject,
  type DesiredObject,
  type FieldSource,
  type KubeObject,
  type ManagedFieldsEntry,
} from '../../../src/core/model/index.js';
import { readFixtureTree } from '../../support/fixtures.js';

/** Plain manifests → desired objects, every node's line recorded under its JSON pointer. */
export function desiredFromFiles(files: ReadonlyMap<string, string>, defaultNamespace = 'default'): DesiredObject[] {
  const out: DesiredObject[] = [];
  for (const [file, text] of files) {
    if (file.endsWith('kustomization.yaml')) continue;
    const lineCounter = new LineCounter();
    parseAllDocuments(text, { lineCounter }).forEach((doc, document) => {
      if (!('contents' in doc) || !isMap(doc.contents)) return;
      const object = doc.toJS() as KubeObject;
      if (!object?.kind) return;
      object.metadata.namespace ??= object.kind === 'Namespace' ? undefined : defaultNamespace;
      if (object.metadata.namespace === undefined) delete object.metadata.namespace;
      const fields: Record<string, FieldSource> = {};
      const place = (node: Node, pointer: Array<string | number>): void => {
        const start = node.range?.[0] ?? 0;
        const { line, col } = lineCounter.linePos(start);
        fields[toPointer(pointer)] = {
          origin: { type: 'resource' },
          location: { file, document, range: [start, node.range?.[1] ?? start], line, column: col },
        };
        if (isMap(node))
          for (const pair of node.items)
            if (pair.value && typeof pair.value === 'object')
              place(pair.value as Node, [...pointer, String((pair.key as { value?: unknown })?.value ?? pair.key)]);
        if (isSeq(node))
          node.items.forEach((item, i) => item && typeof item === 'object' && place(item as Node, [...pointer, i]));
      };
      place(doc.contents, []);
      const key = keyOf(object);
      out.push({
        key,
        object,
        source: {
          file,
          document,
          location: fields[''].location!,
          kustomizations: [],
          sourceName: key.name,
          sourceNamespace: object.metadata.namespace,
          fields,
        },
      });
    });
  }
  return out;
}

export function microservices(): DesiredObject[] {
  return desiredFromFiles(readFixtureTree('manifests/microservices-demo/kubernetes-manifests'));
}

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'env', 'volumes', 'volumeMounts']);

/** The fieldsV1 tree that owns every field of a value, as server-side apply records it. */
export function fieldsOf(value: unknown, field = ''): Record<string, unknown> {
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [`f:${k}`, fieldsOf(v, k)]));
  if (Array.isArray(value) && value.every(isPlainObject)) {
    if (CONTAINER_LISTS.has(field) && value.every((item) => 'name' in item || 'mountPath' in item)) {
      return Object.fromEntries(
        value.map((item) => [
          `k:${JSON.stringify('mountPath' in item ? { mountPath: item.mountPath } : { name: item.name })}`,
          { '.': {}, ...fieldsOf(item) },
        ]),
      );
    }
    if (field === 'ports' && value.every((item) => 'containerPort' in item)) {
      return Object.fromEntries(
        value.map((item) => [
          `k:${JSON.stringify({ containerPort: item.containerPort, protocol: item.protocol ?? 'TCP' })}`,
          { '.': {}, ...fieldsOf(item) },
        ]),
      );
    }
  }
  return {};
}

export interface LiveOptions {
  manager?: string;
  time?: string;
  extraEntries?: ManagedFieldsEntry[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  status?: Record<string, unknown>;
}

/** The live object after the applier applied `desired`: same fields, server metadata, managedFields. */
export function liveOf(desired: DesiredObject, options: LiveOptions = {}): KubeObject {
  const object = structuredClone(desired.object);
  const { metadata: _m, ...rest } = object;
  const owned = fieldsOf(rest);
  const live: KubeObject = {
    ...object,
    metadata: {
      ...object.metadata,
      labels: { ...object.metadata.labels, ...options.labels },
      annotations: { ...object.metadata.annotations, ...options.annotations },
      uid: `uid-${desired.key.name}`,
      resourceVersion: '1001',
      creationTimestamp: '2026-11-30T10:00:00Z',
      managedFields: [
        {
          manager: options.manager ?? 'kustomize-controller',
          operation: 'Apply',
          apiVersion: object.apiVersion,
          time: options.time ?? '2026-12-01T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': fieldsOf(object.metadata.labels ?? {}) }, ...owned },
        },
        ...(options.extraEntries ?? []),
      ],
    },
  };
  if (!Object.keys(live.metadata.labels!).length) delete live.metadata.labels;
  if (!Object.keys(live.metadata.annotations!).length) delete live.metadata.annotations;
  if (options.status) live.status = options.status;
  return live;
}

/** `kubectl scale --replicas=<replicas>` by hand at 03:02:11: kubectl-scale's Update of the scale subresource. */
export function scaledByHand(live: KubeObject, replicas: number): void {
  (live.spec as Record<string, unknown>).replicas = replicas;
  live.metadata.managedFields!.push({
    manager: 'kubectl-scale',
    operation: 'Update',
    subresource: 'scale',
    time: '2026-12-02T03:02:11Z',
    fieldsV1: { 'f:spec': { 'f:replicas': {} } },
  });
}

export function byName(objects: DesiredObject[], kind: string, name: string): DesiredObject {
  const found = objects.find((d) => d.key.kind === kind && d.key.name === name);
  if (!found) throw new Error(`fixture has no ${kind}/${name}`);
  return found;
}

/** A deep copy of a desired object with its object changed by `edit` (source map kept). */
export function edited(desired: DesiredObject, edit: (object: KubeObject) => void): DesiredObject {
  const copy = structuredClone(desired);
  edit(copy.object);
  copy.key = keyOf(copy.object);
  return copy;
}
