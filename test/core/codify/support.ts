// Test helpers for codify: a repository copied from the fixtures, live objects made from the
// rendered manifests with a hand edit recorded in managedFields, and line-by-line comparison.
import { diffLines } from 'diff';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { diffResources } from '../../../src/core/diff/index.js';
import { configSchema, type Config } from '../../../src/core/config/index.js';
import {
  isPlainObject,
  type DiffResult,
  type KubeObject,
  type PathSegment,
  type DesiredObject,
} from '../../../src/core/model/index.js';
import { readFixtureTree } from '../../support/fixtures.js';

/** A fixture repository as path → text, with paths relative to the repository root. */
export function fixtureRepo(name: string): Map<string, string> {
  return readFixtureTree('manifests', name);
}

export function configWith(sections: Record<string, unknown> = {}): Config {
  return configSchema.parse(sections);
}

export function render(files: ReadonlyMap<string, string>, root: string): DesiredObject[] {
  const result = renderManifests(files, root, {});
  if (result.errors.length > 0) throw new Error(JSON.stringify(result.errors));
  return result.objects;
}

/** The fieldsV1 entry that owns exactly the field at `segments`. */
export function fieldsFor(segments: readonly PathSegment[]): Record<string, unknown> {
  let node: Record<string, unknown> = {};
  const root = node;
  for (const segment of segments) {
    const raw =
      typeof segment === 'string'
        ? `f:${segment}`
        : 'index' in segment
          ? `i:${segment.index}`
          : `k:${JSON.stringify(segment.key)}`;
    const child: Record<string, unknown> = {};
    node[raw] = child;
    node = child;
  }
  return root;
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(from)) {
    if (isPlainObject(into[key]) && isPlainObject(value)) merge(into[key] as Record<string, unknown>, value);
    else into[key] = value;
  }
}

export interface HandEdit {
  segments: PathSegment[];
  /** undefined removes nothing: every edit sets a value. */
  value: unknown;
}

/** Writes `value` at `segments` of a plain object, creating maps and keyed items as needed. */
export function setIn(target: Record<string, unknown>, segments: readonly PathSegment[], value: unknown): void {
  let node: unknown = target;
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    const next = segments[i + 1];
    const empty = (): unknown => (next !== undefined && typeof next !== 'string' ? [] : {});
    if (typeof segment === 'string') {
      const map = node as Record<string, unknown>;
      if (last) map[segment] = value;
      else node = map[segment] ??= empty();
    } else {
      const list = node as unknown[];
      let index =
        'index' in segment
          ? segment.index
          : list.findIndex(
              (item) =>
                isPlainObject(item) &&
                Object.entries(segment.key).every(
                  ([k, v]) => (item[k] ?? (k === 'protocol' ? 'TCP' : undefined)) === v,
                ),
            );
      if (index < 0) {
        list.push('key' in segment ? { ...segment.key } : {});
        index = list.length - 1;
      }
      if (last) list[index] = value;
      else node = list[index];
    }
  });
}

/**
 * The live object of a desired one after a person changed it with `manager`: the desired object
 * as the applier left it, the edits applied, and managedFields saying who wrote what.
 */
export function liveAfterHandEdit(desired: KubeObject, edits: HandEdit[], manager = 'kubectl-edit'): KubeObject {
  const live = structuredClone(desired) as KubeObject;
  const human: Record<string, unknown> = {};
  for (const edit of edits) {
    setIn(live as unknown as Record<string, unknown>, edit.segments, edit.value);
    merge(human, fieldsFor(edit.segments));
  }
  live.metadata.managedFields = [
    {
      manager: 'kustomize-controller',
      operation: 'Apply',
      apiVersion: live.apiVersion,
      time: '2026-12-01T10:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: {},
    },
    {
      manager,
      operation: 'Update',
      apiVersion: live.apiVersion,
      time: '2026-12-02T03:02:11Z',
      fieldsType: 'FieldsV1',
      fieldsV1: human,
    },
  ];
  return live;
}

export function diff(desired: DesiredObject[], live: KubeObject[], config: Config): DiffResult {
  return diffResources(desired, live, { config });
}

/** Lines that differ between two texts, by a line diff: everything else is byte-identical. */
export function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed) removed.push(...lines);
    else if (part.added) added.push(...lines);
  }
  return { removed, added };
}

/**
 * `kubectl create configmap feature-flags -n <namespace> --from-literal=checkout=on` (then, with
 * `labels`, `kubectl label`): the live object, its creator in managedFields.
 */
export function handMadeConfigMap(namespace: string, labels?: Record<string, string>): KubeObject {
  const fieldsV1 = { 'f:data': { 'f:checkout': {} }, ...(labels ? { 'f:metadata': { 'f:labels': {} } } : {}) };
  const created = { manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: '2026-12-02T03:00:00Z' };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'feature-flags',
      namespace,
      ...(labels ? { labels } : {}),
      managedFields: [{ ...created, fieldsType: 'FieldsV1', fieldsV1 }],
    },
    data: { checkout: 'on' },
  };
}
