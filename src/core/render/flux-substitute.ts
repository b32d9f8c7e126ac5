// Flux post-build variable substitution (fluxcd/pkg kustomize/kustomize_varsub.go), applied by
// kustomize-controller to each object's YAML after the build: every string (keys included) goes through
// envsubst (envsubst.ts) as go-yaml writes it, and is read back as go-yaml reads it (go-yaml.ts): an
// unquoted `3`, `yes` or `~` takes that type, `a: b` fails the build. An object labelled or annotated `kustomize.toolkit.fluxcd.io/substitute: disabled`
// is left alone. A field whose variable the snapshot does not hold (a Secret's value, a ConfigMap it
// lacks) is not checked: both sides show where the value comes from instead of a value (the live
// object holds it in clear text: a Deployment's env is no Secret). Such a variable in a name, a
// namespace or a key leaves the source not rendered; so do envsubst's own errors and, in strict mode,
// an unset variable read without a default — as they fail kustomize-controller's build.
import { itemHasKey, itemKey, listKeysFor } from '../k8s/index.js';
import {
  escapeSegment,
  fromPointer,
  isPlainObject,
  keyId,
  keyOf,
  type DesiredObject,
  type FieldSource,
  type KubeObject,
  type ResourceKey,
} from '../model/index.js';
import { metadataValue } from '../sources/stamp-metadata.js';
import { EnvsubstError, expand, hasExpansion, type Expansion } from './envsubst.js';
import { lookupIn, type Variables } from './flux-variables.js';
import { emitScalar, readBack, type ReadBack } from './go-yaml.js';

export const SUBSTITUTE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/substitute';

export interface SubstitutionNote {
  pointer: string;
  /** The variables whose values are unknown → where each comes from. */
  variables: Map<string, string[]>;
}

export interface Substitution {
  notes: SubstitutionNote[];
  /** Why kustomize-controller's build fails on this object (or why its name cannot be known). */
  failure?: string;
}

/** How a field's text expands, or why the build fails on it. */
function expandField(text: string, variables: Variables): Expansion | { failure: string } {
  try {
    const expansion = expand(text, lookupIn(variables), variables.strict);
    if (expansion.unset.length > 0) return { failure: `variable not set (strict mode): "${expansion.unset[0]}"` };
    return expansion;
  } catch (error) {
    if (error instanceof EnvsubstError) return { failure: `variable substitution failed: ${error.message}` };
    throw error;
  }
}

/**
 * The field's value after kustomize-controller's round trip: written as go-yaml v2 writes it, run
 * through envsubst as text, read back as YAMLToJSON reads it (`3` becomes a number, `a: b` fails).
 */
function substitutedYaml(text: string, variables: Variables): ReadBack {
  const expansion = expandField(emitScalar(text), variables);
  return 'failure' in expansion ? expansion : readBack(expansion.text);
}

/** `variable X unknown (from Secret flux-system/vars)`. */
function unknownReason(unknown: Map<string, string[]>): string {
  const [name, from] = [...unknown][0]!;
  return `variable ${name} unknown (from ${from.join(' or ')})`;
}

/** What both sides show instead of a value that is not known: where it comes from. */
function unknownMask(unknown: Map<string, string[]>): string {
  return `‹from ${[...new Set([...unknown.values()].flat())].join(', ')}›`;
}

/** Where a value sits in a live object: its container and its key there. */
type LivePlace = { container: Record<string, unknown> | unknown[]; at: string | number };

/**
 * The place in live of the desired object's `path`. An item of a keyed list (containers, env) is found
 * by its key, not its index: the render and the live object may order such lists differently.
 */
function livePlace(desired: unknown, live: KubeObject | undefined, path: readonly string[]): LivePlace | undefined {
  const group = live?.apiVersion?.includes('/') ? live.apiVersion.split('/')[0]! : '';
  const kind = live?.kind ?? '';
  let want: unknown = desired;
  let place: LivePlace | undefined;
  let node: unknown = live;
  const listPointer: string[] = [];
  for (const segment of path) {
    if (Array.isArray(node) && Array.isArray(want)) {
      const item = want[Number(segment)];
      const keys = listKeysFor(group, kind, listPointer.map((part) => `/${escapeSegment(part)}`).join(''));
      const key = keys ? itemKey(item, keys) : undefined;
      const index = key ? node.findIndex((candidate) => itemHasKey(candidate, key)) : Number(segment);
      place = { container: node, at: index };
      node = node[index];
      want = item;
      listPointer.push('*');
      continue;
    }
    want = isPlainObject(want) ? want[segment] : undefined;
    if (!isPlainObject(node)) return undefined;
    place = { container: node, at: segment };
    node = node[segment];
    listPointer.push(segment);
  }
  return place;
}

function valueAt(place: LivePlace | undefined): unknown {
  if (!place) return undefined;
  return Array.isArray(place.container) ? place.container[place.at as number] : place.container[place.at as string];
}

/**
 * Live objects with every field a desired object takes from a Secret masked as the desired object
 * shows it: a Deployment's env holds the substituted value in clear text, and no report may print it.
 * Objects without such fields are returned as they are; masked ones are copies.
 */
export function maskSecretFields(desired: readonly DesiredObject[], live: readonly KubeObject[]): KubeObject[] {
  const masked = new Map(
    desired.filter((object) => object.source.secretFields).map((object) => [keyId(object.key), object]),
  );
  if (masked.size === 0) return [...live];
  return live.map((object) => {
    const from = masked.get(keyId(keyOf(object)));
    if (!from) return object;
    const copy = structuredClone(object);
    for (const [pointer, mask] of Object.entries(from.source.secretFields!)) {
      const place = livePlace(from.object, copy, fromPointer(pointer));
      const held = valueAt(place);
      if (place && held !== undefined && held !== null && typeof held !== 'object')
        (place.container as Record<string, unknown>)[place.at] = mask;
    }
    return copy;
  });
}

/** The names envsubst reads in the text (for the field's source). */
function variableNames(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{#?([\p{L}\p{N}_]+)/gu)].map((m) => m[1]!))];
}

/**
 * Substitutes the object's keys and string values in place, as kustomize-controller does; substituted
 * fields get `source` (with the variables they read). A field whose variable is unknown shows where the
 * value comes from when live holds a scalar there, and is returned as a note.
 */
export function substituteObject(
  desired: DesiredObject,
  variables: Variables,
  source: FieldSource,
  liveOf: (key: ResourceKey) => KubeObject | undefined,
): Substitution {
  const result: Substitution = { notes: [] };
  if (!variables.active || metadataValue(desired, SUBSTITUTE_ANNOTATION) === 'disabled') return result;
  const live = liveOf(substitutedKey(desired, variables));
  const field = (text: string, path: string[], key: boolean): unknown => {
    if (!hasExpansion(text) || result.failure) return text;
    const expansion = expandField(text, variables);
    if ('failure' in expansion) return void (result.failure = expansion.failure);
    const roundTrip = (raw: string): unknown => {
      const back = substitutedYaml(raw, variables);
      return 'failure' in back ? void (result.failure = back.failure) : back.value;
    };
    const pointer = path.map((segment) => `/${escapeSegment(segment)}`).join('');
    if (!key) desired.source.fields[pointer] = withVariables(source, text, variables);
    if (expansion.unknown.size === 0) return key ? expansion.text : roundTrip(text);
    const identity = key || pointer === '/metadata/name' || pointer === '/metadata/namespace';
    if (identity) return void (result.failure = unknownReason(expansion.unknown));
    result.notes.push({ pointer, variables: expansion.unknown });
    const held = valueAt(livePlace(desired.object, live, path));
    if (held === undefined || held === null || typeof held === 'object') return text;
    const mask = unknownMask(expansion.unknown);
    desired.source.secretFields = { ...desired.source.secretFields, [pointer]: mask };
    return mask;
  };
  desired.object = walkStrings(desired.object, [], field) as KubeObject;
  const { name, namespace } = desired.object.metadata ?? {};
  if (!result.failure && name) desired.key = { ...desired.key, name, ...(namespace ? { namespace } : {}) };
  return result;
}

/** The object's key with its name and namespace substituted (as far as they are known). */
function substitutedKey(desired: DesiredObject, variables: Variables): ResourceKey {
  const identity = (text: string | undefined): string | undefined => {
    if (text === undefined || !hasExpansion(text)) return text;
    const expansion = expandField(text, variables);
    return 'failure' in expansion ? text : expansion.text;
  };
  const { name, namespace } = desired.object.metadata ?? {};
  return {
    ...desired.key,
    name: identity(name) ?? desired.key.name,
    namespace: identity(namespace) ?? desired.key.namespace,
  };
}

/** Every key and string of the value through `field` (a map keeps its key order). */
function walkStrings(
  node: unknown,
  path: string[],
  field: (text: string, path: string[], key: boolean) => unknown,
): unknown {
  if (typeof node === 'string') return field(node, path, false);
  if (Array.isArray(node)) return node.map((item, index) => walkStrings(item, [...path, String(index)], field));
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const name = field(key, [...path, key], true);
    const at = typeof name === 'string' ? name : key;
    out[at] = walkStrings(value, [...path, at], field);
  }
  return out;
}

/** The field's source, naming the variables it reads and where each is set. */
function withVariables(source: FieldSource, text: string, variables: Variables): FieldSource {
  if (source.origin.type !== 'source-transform') return source;
  const names = variableNames(text);
  const alone = names.length === 1 && text === `\${${names[0]}}`;
  const used = names.map((name) => {
    const at = alone && variables.origin.get(name) === 'postBuild.substitute' ? variables.inline?.get(name) : undefined;
    const from = variables.origin.get(name) ?? (variables.open.length > 0 ? variables.open.join(' or ') : 'not set');
    return { name, from, ...(at ? { at } : {}) };
  });
  return used.length > 0 ? { ...source, origin: { ...source.origin, variables: used, text } } : source;
}

/**
 * An inline `substitute` value is a place codify may write only when one field of the render reads
 * that variable, as a string: otherwise the edit would change other fields too (or the value's type).
 */
export function keepUnambiguousPlaces(objects: readonly DesiredObject[]): void {
  const readers = new Map<string, number>();
  const each = (visit: (origin: SubstitutedOrigin, desired: DesiredObject, pointer: string) => void): void => {
    for (const desired of objects)
      for (const [pointer, field] of Object.entries(desired.source.fields))
        if (field.origin.type === 'source-transform' && field.origin.variables) visit(field.origin, desired, pointer);
  };
  each((origin) => origin.variables!.forEach((v) => readers.set(v.name, (readers.get(v.name) ?? 0) + 1)));
  each((origin, desired, pointer) => {
    const text = valueAt(livePlace(desired.object, desired.object, fromPointer(pointer)));
    for (const used of origin.variables!)
      if (used.at && (readers.get(used.name) !== 1 || typeof text !== 'string')) delete used.at;
  });
}

type SubstitutedOrigin = Extract<FieldSource['origin'], { type: 'source-transform' }>;
