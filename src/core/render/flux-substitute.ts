// Flux post-build variable substitution (fluxcd/pkg kustomize/kustomize_varsub.go and its envsubst):
// `${var}`, `${var:=default}`, `${var:-default}`; `$var` is left alone; `$${var}` yields `${var}`; an
// undefined variable becomes empty. Values from a Secret are not in a snapshot (hashed), so a field
// that uses one cannot be checked: it is reported as such, and both sides show where the value comes
// from instead of it (the live object holds it in clear text: a Deployment's env is no Secret).
import { itemHasKey, itemKey, listKeysFor, secretMask } from '../k8s/index.js';
import {
  escapeSegment,
  fromPointer,
  isPlainObject,
  keyId,
  keyOf,
  type DesiredObject,
  type FieldSource,
  type KubeObject,
} from '../model/index.js';
import { metadataValue } from '../sources/stamp-metadata.js';

export const SUBSTITUTE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/substitute';

export interface Variables {
  /** Known values: ConfigMap data in list order, then the inline `substitute`, which wins. */
  values: Map<string, string>;
  /** Variables whose value comes from a Secret (and no later source): unknown here; → `namespace/name`. */
  unknown: Map<string, string>;
}

const VARIABLE = /\$(\$?)\{([_a-zA-Z][_a-zA-Z0-9]*)(?:(:?[=-])([^}]*))?\}/g;

type Substituted = { text: string; unknown: string[]; secrets: string[] };

/** The text with its variables substituted, and the unknown (Secret) variables it used. */
export function substituteText(text: string, variables: Variables): Substituted {
  const unknown: string[] = [];
  const secrets: string[] = [];
  type Replace = (whole: string, escaped: string, name: string, operator?: string, fallback?: string) => string;
  const replace: Replace = (whole, escaped, name, operator, fallback) => {
    if (escaped) return whole.slice(1);
    const secret = variables.unknown.get(name);
    if (secret !== undefined) {
      unknown.push(name);
      secrets.push(secret);
      return whole;
    }
    const value = variables.values.get(name);
    if (value !== undefined && (value !== '' || !operator?.startsWith(':'))) return value;
    return operator ? (fallback ?? '') : '';
  };
  const substituted = text.replace(VARIABLE, replace as (substring: string, ...args: string[]) => string);
  return { text: substituted, unknown, secrets };
}

export interface SubstitutionNote {
  pointer: string;
  variables: string[];
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
      if (place && typeof valueAt(place) === 'string') (place.container as Record<string, unknown>)[place.at] = mask;
    }
    return copy;
  });
}

/**
 * Substitutes the object's string values in place. A field that uses a Secret's variable shows where
 * its value comes from (or keeps its text when live has none) and is returned as not checkable.
 * Substituted fields get `source`.
 */
export function substituteObject(
  desired: DesiredObject,
  variables: Variables,
  source: FieldSource,
  live: KubeObject | undefined,
): SubstitutionNote[] {
  if (metadataValue(desired, SUBSTITUTE_ANNOTATION) === 'disabled') return [];
  const notes: SubstitutionNote[] = [];
  const walk = (node: unknown, path: string[]): unknown => {
    if (typeof node === 'string') {
      if (!node.includes('${')) return node;
      const { text, unknown, secrets } = substituteText(node, variables);
      const pointer = path.map((segment) => `/${escapeSegment(segment)}`).join('');
      desired.source.fields[pointer] = source;
      if (unknown.length === 0) return text;
      notes.push({ pointer, variables: [...new Set(unknown)] });
      // What live holds cannot be checked; neither side shows it (maskSecretFields masks live alike).
      if (typeof valueAt(livePlace(desired.object, live, path)) !== 'string') return text;
      const mask = secretMask(secrets);
      desired.source.secretFields = { ...desired.source.secretFields, [pointer]: mask };
      return mask;
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, String(index)]));
    if (isPlainObject(node)) {
      for (const key of Object.keys(node)) node[key] = walk(node[key], [...path, key]);
      return node;
    }
    return node;
  };
  walk(desired.object, []);
  return notes;
}
