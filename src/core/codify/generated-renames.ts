// A values file a kustomize configMapGenerator reads, with the content hash on, renames the ConfigMap
// when it is edited (`web-values-29k96ffgmk` becomes `web-values-7k2f2d28ff`), and kustomize's
// nameReference makes the references follow (a HelmRelease's spec.valuesFrom[].name). After the edit
// the old ConfigMap is extra, the new one missing and each reference changed: that is the edit itself,
// as the controller rolls it out (it applies the new ConfigMap and prunes the old one). Only a pair of
// the same generator (the name without its hash) whose content differs only in the edited values, and
// references whose only difference is that name, rewritten by the generator's rename, count.
import { isDeepStrictEqual } from 'node:util';
import {
  escapeSegment,
  isPlainObject,
  keyId,
  type DesiredObject,
  type DiffResult,
  type FieldChange,
  type PathSegment,
  type ResourceDiff,
  type ResourceKey,
} from '../model/index.js';

/** The field of a generated object that holds the edited values (a ConfigMap's `data` key). */
export interface HeldField {
  key: ResourceKey;
  segments: PathSegment[];
}

export interface GeneratedRename {
  from: ResourceKey;
  to: ResourceKey;
}

/** kustomize's suffix: ten characters of a hex digest with 0, 1, 3, a, e spelled g, h, k, m, t. */
const HASHED = /^(.+)-[24-9bcdfghkmt]{10}$/;

/** The generator's name of an object it made with the hash on (`web-values`); undefined otherwise. */
function hashedBase(desired: DesiredObject): string | undefined {
  if (desired.source.fields['/metadata/name']?.origin.type !== 'generator') return undefined;
  return HASHED.exec(desired.key.name)?.[1];
}

function sameSlot(a: ResourceKey, b: ResourceKey): boolean {
  return a.group === b.group && a.kind === b.kind && a.namespace === b.namespace;
}

/** The object without its name and the held fields: what must stay equal across the rename. */
function withoutEdit(object: unknown, held: readonly PathSegment[][]): unknown {
  const copy = structuredClone(object) as Record<string, unknown>;
  if (isPlainObject(copy.metadata)) delete copy.metadata.name;
  for (const segments of held) {
    if (!segments.every((segment) => typeof segment === 'string')) continue;
    let parent: unknown = copy;
    for (const segment of segments.slice(0, -1)) parent = isPlainObject(parent) ? parent[segment] : undefined;
    if (isPlainObject(parent)) delete parent[segments[segments.length - 1] as string];
  }
  return copy;
}

/** The renamed generated objects: after the edit `to` is missing, `from` (in sync before) extra. */
export function generatedRenames(before: DiffResult, after: DiffResult, held: readonly HeldField[]): GeneratedRename[] {
  const was = new Map(before.resources.map((resource) => [keyId(resource.key), resource]));
  const formerly = (resource: ResourceDiff): DesiredObject | undefined => {
    const old = was.get(keyId(resource.key));
    return resource.status === 'extra' && old?.desired && old.status !== 'missing' ? old.desired : undefined;
  };
  const renames: GeneratedRename[] = [];
  for (const made of after.resources) {
    const base = made.status === 'missing' && made.desired ? hashedBase(made.desired) : undefined;
    if (base === undefined) continue;
    const olds = after.resources.flatMap((resource) => {
      const old = sameSlot(resource.key, made.key) ? formerly(resource) : undefined;
      return old && hashedBase(old) === base ? [old] : [];
    });
    if (olds.length !== 1) continue;
    const old = olds[0]!;
    const edited = held.filter((field) => keyId(field.key) === keyId(old.key)).map((field) => field.segments);
    if (!isDeepStrictEqual(withoutEdit(old.object, edited), withoutEdit(made.desired!.object, edited))) continue;
    renames.push({ from: old.key, to: made.key });
  }
  return renames;
}

/**
 * Whether a change only says that references follow renamed objects: every leaf that differs holds the
 * new name in Git and the old one live, and the render set it for the rename (nameReference).
 */
function followsRename(desired: DesiredObject, change: FieldChange, renames: readonly GeneratedRename[]): boolean {
  let renamed = 0;
  const same = (d: unknown, l: unknown, pointer: string): boolean => {
    if (Array.isArray(d) && Array.isArray(l))
      return d.length === l.length && d.every((item, i) => same(item, l[i], `${pointer}/${i}`));
    if (isPlainObject(d) && isPlainObject(l)) {
      const keys = Object.keys(d);
      if (keys.length !== Object.keys(l).length) return false;
      return keys.every((key) => key in l && same(d[key], l[key], `${pointer}/${escapeSegment(key)}`));
    }
    if (isDeepStrictEqual(d, l)) return true;
    const rename = renames.find(({ from, to }) => d === to.name && l === from.name);
    if (!rename || desired.source.fields[pointer]?.origin.type !== 'generator') return false;
    renamed += 1;
    return true;
  };
  return same(change.desired, change.live, change.path) && renamed > 0;
}

/** What the renames explain: the old objects now extra, the new ones missing, and the references' changes. */
export function explainedByRenames(
  after: DiffResult,
  renames: readonly GeneratedRename[],
): { extra: ResourceKey[]; missing: ResourceKey[]; changes: { key: ResourceKey; change: FieldChange }[] } {
  const changes: { key: ResourceKey; change: FieldChange }[] = [];
  if (renames.length > 0)
    for (const resource of after.resources)
      for (const change of resource.changes)
        if (resource.desired && followsRename(resource.desired, change, renames))
          changes.push({ key: resource.key, change });
  return { extra: renames.map((rename) => rename.from), missing: renames.map((rename) => rename.to), changes };
}
