// Flux post-build variable substitution (fluxcd/pkg kustomize/kustomize_varsub.go and its envsubst):
// `${var}`, `${var:=default}`, `${var:-default}`; `$var` is left alone; `$${var}` yields `${var}`; an
// undefined variable becomes empty. Values from a Secret are not in a snapshot (hashed), so a field
// that uses one cannot be checked: it takes the live value and is reported as such.
import { itemHasKey, itemKey, listKeysFor } from '../k8s/index.js';
import { escapeSegment, isPlainObject, type DesiredObject, type FieldSource, type KubeObject } from '../model/index.js';
import { metadataValue } from '../sources/stamp-metadata.js';

export const SUBSTITUTE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/substitute';

export interface Variables {
  /** Known values: ConfigMap data in list order, then the inline `substitute`, which wins. */
  values: Map<string, string>;
  /** Variables whose value comes from a Secret (and no later source): unknown here. */
  unknown: Set<string>;
}

const VARIABLE = /\$(\$?)\{([_a-zA-Z][_a-zA-Z0-9]*)(?:(:?[=-])([^}]*))?\}/g;

type Substituted = { text: string; unknown: string[] };

/** The text with its variables substituted, and the unknown (Secret) variables it used. */
export function substituteText(text: string, variables: Variables): Substituted {
  const unknown: string[] = [];
  type Replace = (whole: string, escaped: string, name: string, operator?: string, fallback?: string) => string;
  const replace: Replace = (whole, escaped, name, operator, fallback) => {
    if (escaped) return whole.slice(1);
    if (variables.unknown.has(name)) {
      unknown.push(name);
      return whole;
    }
    const value = variables.values.get(name);
    if (value !== undefined && (value !== '' || !operator?.startsWith(':'))) return value;
    return operator ? (fallback ?? '') : '';
  };
  return { text: text.replace(VARIABLE, replace as (substring: string, ...args: string[]) => string), unknown };
}

export interface SubstitutionNote {
  pointer: string;
  variables: string[];
}

/**
 * The live value at the desired object's `path`. An item of a keyed list (containers, env) is found by
 * its key, not its index: the render and the live object may order such lists differently.
 */
function liveAt(desired: unknown, live: KubeObject | undefined, path: string[]): unknown {
  const group = live?.apiVersion?.includes('/') ? live.apiVersion.split('/')[0]! : '';
  const kind = live?.kind ?? '';
  let want: unknown = desired;
  let node: unknown = live;
  const listPointer: string[] = [];
  for (const segment of path) {
    if (Array.isArray(node) && Array.isArray(want)) {
      const item = want[Number(segment)];
      const keys = listKeysFor(group, kind, listPointer.map((part) => `/${escapeSegment(part)}`).join(''));
      const key = keys ? itemKey(item, keys) : undefined;
      node = key ? node.find((candidate) => itemHasKey(candidate, key)) : node[Number(segment)];
      want = item;
      listPointer.push('*');
      continue;
    }
    want = isPlainObject(want) ? want[segment] : undefined;
    if (isPlainObject(node)) node = node[segment];
    else return undefined;
    listPointer.push(segment);
  }
  return node;
}

/**
 * Substitutes the object's string values in place. A field that uses a Secret's variable takes the
 * live value (or keeps its text) and is returned as not checkable. Substituted fields get `source`.
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
      const { text, unknown } = substituteText(node, variables);
      const pointer = path.map((segment) => `/${escapeSegment(segment)}`).join('');
      desired.source.fields[pointer] = source;
      if (unknown.length === 0) return text;
      notes.push({ pointer, variables: [...new Set(unknown)] });
      const value = liveAt(desired.object, live, path);
      return typeof value === 'string' ? value : text;
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
