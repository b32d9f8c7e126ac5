// Flux post-build variable substitution (fluxcd/pkg kustomize/kustomize_varsub.go), applied by
// kustomize-controller to each object's YAML after the build: the object is written as go-yaml v2 writes
// it (go-yaml-emit.ts), envsubst (envsubst.ts) runs on that text, and the whole document is read back as
// go-yaml reads it (go-yaml.ts): an unquoted `3`, `yes` or `~` takes that type, keys too; `a: b` fails the
// build. An object labelled or annotated `kustomize.toolkit.fluxcd.io/substitute: disabled`
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
import { EnvsubstError, expand, hasExpansion, type Expansion, type VariableValue } from './envsubst.js';
import { lookupIn, type Variables } from './flux-variables.js';
import { emitDocument } from './go-yaml-emit.js';
import { readDocument, type ReadBack } from './go-yaml.js';

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

/** What go-yaml reads back for a key or value whose substituted document is `text` (one entry). */
function soleEntry(text: string): ReadBack & { key?: string } {
  const back = readDocument(text);
  if ('failure' in back) return back;
  const [entry] = isPlainObject(back.value) ? Object.entries(back.value) : [];
  return entry ? { key: entry[0], value: entry[1] } : { failure: 'envsubst error: YAMLToJSON: yaml: no entry' };
}

/**
 * The field's value (or key) after kustomize-controller's round trip: written as go-yaml v2 writes it,
 * run through envsubst as text, read back as YAMLToJSON reads it (`3` becomes a number, `a: b` fails).
 */
function substitutedYaml(text: string, variables: Variables, key: boolean): ReadBack & { key?: string } {
  const expansion = expandField(emitDocument(key ? { [text]: null } : { k: text }), variables);
  return 'failure' in expansion ? expansion : soleEntry(expansion.text);
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
 * value comes from when live holds a scalar there, and is returned as a note. The values are those the
 * whole document reads back (`wholeDocument`); the object keeps its key order.
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
  const kept: { path: string[]; value: unknown }[] = [];
  let [touched, grown] = [false, 0];
  const field = (text: string, path: string[], key: boolean): unknown => {
    if (!hasExpansion(text) || result.failure) return text;
    touched = true;
    const expansion = expandField(text, variables);
    if ('failure' in expansion) return void (result.failure = expansion.failure);
    if ((grown += expansion.text.length) > MAX_DOCUMENT) return void (result.failure = TOO_LARGE);
    const pointer = path.map((segment) => `/${escapeSegment(segment)}`).join('');
    if (!key) desired.source.fields[pointer] = withVariables(source, text, variables);
    if (expansion.unknown.size === 0) return key ? (substitutedYaml(text, variables, true).key ?? text) : text;
    const identity = key || pointer === '/metadata/name' || pointer === '/metadata/namespace';
    if (identity) return void (result.failure = unknownReason(expansion.unknown));
    result.notes.push({ pointer, variables: expansion.unknown });
    const held = valueAt(livePlace(desired.object, live, path));
    const scalar = held !== undefined && held !== null && typeof held !== 'object';
    const mask = scalar ? unknownMask(expansion.unknown) : text;
    if (scalar) desired.source.secretFields = { ...desired.source.secretFields, [pointer]: mask };
    kept.push({ path, value: mask });
    return mask;
  };
  const walked = walkStrings(desired.object, [], field);
  const whole = !result.failure && touched ? wholeDocument(desired.object, variables) : { value: walked };
  if ('failure' in whole) result.failure ??= whole.failure;
  else desired.object = orderLike(withKept(whole.value, kept), walked) as KubeObject;
  const { name, namespace } = desired.object.metadata ?? {};
  if (!result.failure && name) desired.key = { ...desired.key, name, ...(namespace ? { namespace } : {}) };
  return result;
}

/** The largest object kustomize-controller can apply (the API server's request limit, 3 MiB). */
const MAX_DOCUMENT = 3 * 1024 * 1024;
const TOO_LARGE = `the substituted object is larger than ${MAX_DOCUMENT / 1024 / 1024} MiB`;

/**
 * The object as kustomize-controller's round trip gives it: written whole as JSONToYAML writes it,
 * envsubst over that text, read back whole — so a substituted `#` starts a comment, an `&anchor` in one
 * field serves an alias in another, and a value substituted at a fold loses the spaces around it. An
 * unknown variable reads as a word here; its fields keep what the field-by-field pass gave them.
 */
function wholeDocument(object: KubeObject, variables: Variables): ReadBack {
  const known = lookupIn(variables);
  const lookup = (name: string): VariableValue => {
    const found = known(name);
    return found.type === 'unknown' ? { type: 'set', value: 'unknown' } : found;
  };
  try {
    const expansion = expand(emitDocument(object as Record<string, unknown>), lookup, variables.strict);
    if (expansion.unset.length > 0) return { failure: `variable not set (strict mode): "${expansion.unset[0]}"` };
    if (expansion.text.length > MAX_DOCUMENT) return { failure: TOO_LARGE };
    return readDocument(expansion.text);
  } catch (error) {
    if (error instanceof EnvsubstError) return { failure: `variable substitution failed: ${error.message}` };
    throw error;
  }
}

/** The value with each kept field (a value not known here) set back where the object holds it. */
function withKept(value: unknown, kept: readonly { path: string[]; value: unknown }[]): unknown {
  for (const field of kept) {
    let node = value;
    for (const segment of field.path.slice(0, -1))
      node = Array.isArray(node) ? node[Number(segment)] : isPlainObject(node) ? node[segment] : undefined;
    const last = field.path[field.path.length - 1]!;
    if (Array.isArray(node)) node[Number(last)] = field.value;
    else if (isPlainObject(node) && last in node) node[last] = field.value;
  }
  return value;
}

/** The value with its maps' keys in the order `like` has them (JSON from Go sorts them). */
function orderLike(value: unknown, like: unknown): unknown {
  if (Array.isArray(value))
    return value.map((item, index) => orderLike(item, Array.isArray(like) ? like[index] : undefined));
  if (!isPlainObject(value)) return value;
  const order = new Set(isPlainObject(like) ? Object.keys(like).filter((key) => key in value) : []);
  const out: Record<string, unknown> = {};
  for (const key of new Set([...order, ...Object.keys(value)]))
    out[key] = orderLike(value[key], isPlainObject(like) ? like[key] : undefined);
  return out;
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
