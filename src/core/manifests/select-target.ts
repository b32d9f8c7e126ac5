// Patch targets as kustomize selects them: group, version, kind, name and namespace (anchored RE2
// patterns; names and namespaces are matched against current and earlier ones), plus label and
// annotation selectors in Kubernetes selector syntax.
import { setOwn } from '../model/index.js';
import { apiVersionOf, groupOfResource, kindOf, type BuildResource } from './resource.js';
import { getIn, type TrackedNode } from './tracked.js';
import { compileAnchored, type Pattern } from '../patterns/index.js';

export interface TargetSelector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

export function readSelector(node: TrackedNode | undefined): TargetSelector | undefined {
  if (node?.kind !== 'map') return undefined;
  const selector: Record<string, string> = {};
  for (const [key, value] of node.entries)
    if (value.kind === 'scalar' && value.value !== null) setOwn(selector, key, String(value.value));
  return selector as TargetSelector;
}

export type CompiledSelector =
  { ok: true; select: (resources: readonly BuildResource[]) => BuildResource[] } | { ok: false; message: string };

const ID_FIELDS = ['group', 'version', 'kind', 'name', 'namespace'] as const;

/**
 * A patch target as kustomize compiles it (api/types/selector.go NewSelectorRegex): every id field
 * that is set is an anchored RE2 pattern, matched in linear time; one RE2 refuses is an error.
 */
export function compileSelector(selector: TargetSelector): CompiledSelector {
  const fields: Array<[(typeof ID_FIELDS)[number], Pattern]> = [];
  for (const field of ID_FIELDS) {
    const source = selector[field];
    if (!source) continue;
    const compiled = compileAnchored(source);
    if (!compiled.ok) return { ok: false, message: `target.${field} "${source}": ${compiled.message}` };
    fields.push([field, compiled.pattern]);
  }
  const labels = selector.labelSelector ? parseSelector(selector.labelSelector) : undefined;
  const annotations = selector.annotationSelector ? parseSelector(selector.annotationSelector) : undefined;
  const matches = (r: BuildResource, field: (typeof ID_FIELDS)[number], pattern: Pattern): boolean => {
    if (field === 'name') return r.names.some((n) => pattern.test(n));
    if (field === 'namespace') return r.namespaces.some((ns) => pattern.test(ns));
    if (field === 'kind') return pattern.test(kindOf(r));
    if (field === 'group') return pattern.test(groupOfResource(r));
    return pattern.test(versionOf(apiVersionOf(r)));
  };
  const select = (resources: readonly BuildResource[]): BuildResource[] =>
    resources.filter(
      (r) =>
        fields.every(([field, pattern]) => matches(r, field, pattern)) &&
        (!labels || labels(stringsAt(r.root, ['metadata', 'labels']))) &&
        (!annotations || annotations(stringsAt(r.root, ['metadata', 'annotations']))),
    );
  return { ok: true, select };
}

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

function stringsAt(root: TrackedNode, path: string[]): Map<string, string> {
  const node = getIn(root, path);
  const out = new Map<string, string>();
  if (node?.kind === 'map')
    for (const [k, v] of node.entries) if (v.kind === 'scalar') out.set(k, String(v.value ?? ''));
  return out;
}

/** Kubernetes label selector: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma-separated. */
export function parseSelector(text: string): (labels: Map<string, string>) => boolean {
  const terms: ((labels: Map<string, string>) => boolean)[] = [];
  for (const raw of text.match(/[^,(]+(\([^)]*\))?/g) ?? []) {
    const term = raw.trim().replace(/^,/, '').trim();
    if (!term) continue;
    let m: RegExpMatchArray | null;
    if ((m = term.match(/^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/))) {
      const [, key, op, list] = m;
      const values = list.split(',').map((v) => v.trim());
      terms.push(
        op === 'in'
          ? (l) => l.has(key) && values.includes(l.get(key)!)
          : (l) => !l.has(key) || !values.includes(l.get(key)!),
      );
    } else if ((m = term.match(/^([^\s!=]+)\s*!=\s*(\S*)$/))) {
      const [, key, value] = m;
      terms.push((l) => l.get(key) !== value);
    } else if ((m = term.match(/^([^\s!=]+)\s*==?\s*(\S*)$/))) {
      const [, key, value] = m;
      terms.push((l) => l.get(key) === value);
    } else if ((m = term.match(/^!\s*(\S+)$/))) {
      const key = m[1];
      terms.push((l) => !l.has(key));
    } else {
      terms.push((l) => l.has(term));
    }
  }
  return (labels) => terms.every((t) => t(labels));
}
