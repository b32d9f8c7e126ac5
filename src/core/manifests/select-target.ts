// Patch targets as kustomize selects them: group, version, kind, name and namespace (name, kind and
// namespace are anchored regular expressions, matched against current and earlier names), plus
// label and annotation selectors in Kubernetes selector syntax.
import { setOwn } from '../model/index.js';
import { apiVersionOf, groupOfResource, kindOf, type BuildResource } from './resource.js';
import { getIn, type TrackedNode } from './tracked.js';

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

export function selectResources(resources: readonly BuildResource[], selector: TargetSelector): BuildResource[] {
  const name = anchored(selector.name);
  const namespace = anchored(selector.namespace);
  const kind = anchored(selector.kind);
  const labels = selector.labelSelector ? parseSelector(selector.labelSelector) : undefined;
  const annotations = selector.annotationSelector ? parseSelector(selector.annotationSelector) : undefined;
  return resources.filter((r) => {
    if (selector.group !== undefined && selector.group !== groupOfResource(r)) return false;
    if (selector.version !== undefined && selector.version !== versionOf(apiVersionOf(r))) return false;
    if (kind && !kind.test(kindOf(r))) return false;
    if (name && !r.names.some((n) => name.test(n))) return false;
    if (namespace && !r.namespaces.some((ns) => namespace.test(ns))) return false;
    if (labels && !labels(stringsAt(r.root, ['metadata', 'labels']))) return false;
    if (annotations && !annotations(stringsAt(r.root, ['metadata', 'annotations']))) return false;
    return true;
  });
}

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

function anchored(pattern: string | undefined): RegExp | undefined {
  if (!pattern) return undefined;
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return { test: (s: string) => s === pattern } as RegExp;
  }
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
