// After renames (namePrefix/nameSuffix, namespaces, generator hashes, patches), references inside the
// build follow the object they name, as kustomize's nameReference transformer does once at the end of
// a build: its field specs (transformer-config.ts: the built-in ones plus `configurations`) say where
// a kind is referred to; a reference is matched against the names objects had before their renames,
// narrowed by kind, namespace and, when several remain, by the prefixes and suffixes they share.
import type { FieldSource, SourceProblem } from '../model/index.js';
import { isBuiltInClusterScoped } from '../k8s/index.js';
import {
  describeResource,
  effectiveNamespace,
  groupOfResource,
  kindOf,
  nameOf,
  namespaceOf,
  originalId,
  type BuildResource,
} from './resource.js';
import { fieldsAt, gvkSelected, pathSegments, type Gvk, type TransformerConfig } from './transformer-config.js';
import { getString, type TrackedMap, type TrackedNode } from './tracked.js';

export function fixNameReferences(resources: BuildResource[], config: TransformerConfig): SourceProblem[] {
  const problems: SourceProblem[] = resources.flatMap(blankSubjectNamespace);
  const renamed = resources.filter((r) => r.prevIds && r.prevIds.length > 0);
  if (renamed.length === 0) return problems;
  for (const backRef of config.nameReference) {
    // Only objects renamed at some point and once of the referred kind can be referral targets.
    const targets = renamed.filter((r) => r.prevIds!.some((id) => gvkSelected(id, backRef)));
    if (targets.length === 0) continue;
    for (const spec of backRef.fieldSpecs) {
      const segments = pathSegments(spec.path);
      for (const referrer of resources) {
        const org = originalId(referrer);
        if (!gvkSelected(org, spec)) continue;
        const fields = fieldsAt(referrer.root, segments);
        if (fields.length === 0) continue;
        const candidates = referable(referrer, targets);
        const context: Selection = { referrer, target: backRef, path: spec.path, candidates };
        for (const field of fields) {
          try {
            update(field.parent, field.key, field.node, context);
          } catch (error) {
            if (!(error instanceof AmbiguousReference)) throw error;
            problems.push({ file: referrer.file, line: referrer.location.line, message: error.message });
          }
        }
      }
    }
  }
  return problems;
}

class AmbiguousReference extends Error {}

/**
 * kustomize refuses a RoleBinding whose ServiceAccount subject has a `namespace:` that is not a
 * string (left blank, it is null): it reads those namespaces to tell what the binding may refer to.
 */
function blankSubjectNamespace(resource: BuildResource): SourceProblem[] {
  const subjects = resource.root.entries.get('subjects');
  if (kindOf(resource) !== 'RoleBinding' || subjects?.kind !== 'list') return [];
  const blank = subjects.items.some((s) => {
    if (s.kind !== 'map' || getString(s, ['kind']) !== 'ServiceAccount') return false;
    const namespace = s.entries.get('namespace');
    return namespace !== undefined && (namespace.kind !== 'scalar' || typeof namespace.value !== 'string');
  });
  if (!blank) return [];
  return [
    {
      file: resource.file,
      line: resource.location.line,
      message: `${describeResource(resource)}: a ServiceAccount subject's namespace is blank; kustomize refuses the build: give the namespace or leave the key out`,
    },
  ];
}

interface Selection {
  referrer: BuildResource;
  target: Gvk;
  path: string;
  candidates: BuildResource[];
}

/** Objects `referrer` may refer to: any from a cluster-scoped one; else cluster-scoped ones, its namespace's, a RoleBinding's subjects' namespaces. */
function referable(referrer: BuildResource, targets: BuildResource[]): BuildResource[] {
  if (isBuiltInClusterScoped(groupOfResource(referrer), kindOf(referrer))) return targets;
  const namespace = effectiveNamespace(referrer);
  const subjectNamespaces = new Set<string>();
  if (kindOf(referrer) === 'RoleBinding') {
    const subjects = referrer.root.entries.get('subjects');
    if (subjects?.kind === 'list') {
      for (const s of subjects.items)
        if (getString(s, ['kind']) === 'ServiceAccount' && getString(s, ['namespace']))
          subjectNamespaces.add(getString(s, ['namespace'])!);
    }
  }
  return targets.filter(
    (t) =>
      isBuiltInClusterScoped(groupOfResource(t), kindOf(t)) ||
      effectiveNamespace(t) === namespace ||
      subjectNamespaces.has(namespaceOf(t)),
  );
}

function update(
  parent: TrackedMap | { kind: 'list'; items: TrackedNode[] },
  key: string | number,
  node: TrackedNode,
  context: Selection,
): void {
  if (node.kind === 'list') {
    node.items.forEach((item, index) => {
      if (item.kind !== 'list') update(node, index, item, context);
    });
    return;
  }
  if (node.kind === 'scalar') {
    if (typeof node.value !== 'string') return;
    const referral = select(node.value, context.candidates, context, sameNames);
    if (!referral || nameOf(referral) === node.value) return;
    replace(parent, key, { kind: 'scalar', value: nameOf(referral), source: sourceOf(node, referral) });
    return;
  }
  const nameNode = node.entries.get('name');
  if (nameNode?.kind !== 'scalar' || typeof nameNode.value !== 'string') return;
  const namespaceNode = node.entries.get('namespace');
  let candidates = context.candidates;
  if (namespaceNode?.kind === 'scalar' && typeof namespaceNode.value === 'string') {
    const ns = namespaceNode.value;
    const byOriginal = candidates.filter((c) => originalId(c).namespace === ns);
    candidates = byOriginal.length > 0 ? byOriginal : candidates.filter((c) => effectiveNamespace(c) === ns);
  }
  const referral = select(nameNode.value, candidates, context, sameNamesAndNamespaces);
  if (!referral) return;
  if (nameOf(referral) === nameNode.value && !namespaceOf(referral)) return;
  if (nameOf(referral) !== nameNode.value)
    node.entries.set('name', { kind: 'scalar', value: nameOf(referral), source: sourceOf(nameNode, referral) });
  if (!namespaceOf(referral) || (namespaceNode?.kind === 'scalar' && namespaceNode.value === namespaceOf(referral)))
    return;
  node.entries.set('namespace', {
    kind: 'scalar',
    value: namespaceOf(referral),
    source: sourceOf(namespaceNode ?? nameNode, referral),
  });
}

function replace(
  parent: TrackedMap | { kind: 'list'; items: TrackedNode[] },
  key: string | number,
  node: TrackedNode,
): void {
  if (parent.kind === 'list') parent.items[key as number] = node;
  else parent.entries.set(key as string, node);
}

function sourceOf(node: TrackedNode, referral: BuildResource): FieldSource {
  return { location: node.source.location, origin: referral.renamedBy ?? node.source.origin };
}

function select(
  oldName: string,
  all: BuildResource[],
  context: Selection,
  identical: (rs: BuildResource[]) => boolean,
): BuildResource | undefined {
  let candidates = all.filter((c) => c.prevIds!.some((id) => id.name === oldName));
  candidates = candidates.filter((c) => c.prevIds!.some((id) => gvkSelected(id, context.target)));
  if (context.path.endsWith('roleRef/name')) {
    const roleRef = context.referrer.root.entries.get('roleRef');
    const kind = getString(roleRef, ['kind']);
    const group = getString(roleRef, ['apiGroup']);
    if (kind !== undefined && group !== undefined)
      candidates = candidates.filter((c) => c.prevIds!.some((id) => gvkSelected(id, { group, kind })));
  }
  const referrer = context.referrer;
  if (!isBuiltInClusterScoped(groupOfResource(referrer), kindOf(referrer))) {
    const ns = effectiveNamespace(referrer);
    candidates = candidates.filter(
      (c) =>
        isBuiltInClusterScoped(groupOfResource(c), kindOf(c)) ||
        kindOf(c) === 'ServiceAccount' ||
        effectiveNamespace(c) === ns,
    );
  }
  if (candidates.length === 1) return candidates[0];
  candidates = candidates.filter((c) => affixesMatch(c, referrer, true));
  if (candidates.length > 1) candidates = candidates.filter((c) => affixesMatch(c, referrer, false));
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) return undefined;
  if (identical(candidates)) return candidates[0];
  throw new AmbiguousReference(
    `${describeResource(referrer)}: ${context.path} "${oldName}" could name any of ${candidates.map(describeResource).join(', ')}; ` +
      'kustomize refuses such a build: give the objects distinct names, or prefixes that tell them apart',
  );
}

const sameNames = (rs: BuildResource[]): boolean => rs.every((r) => nameOf(r) === nameOf(rs[0]));
const sameNamesAndNamespaces = (rs: BuildResource[]): boolean =>
  rs.every((r) => nameOf(r) === nameOf(rs[0]) && namespaceOf(r) === namespaceOf(rs[0]));

function affixesMatch(a: BuildResource, b: BuildResource, allowEmpty: boolean): boolean {
  const match = (x: string[], y: string[]): boolean =>
    (allowEmpty && (x.length === 0 || y.length === 0)) || sameEnding(x, y);
  return match(a.prefixes ?? [], b.prefixes ?? []) && match(a.suffixes ?? [], b.suffixes ?? []);
}

/** kustomize's SameEndingSubSlice: the shorter list is the end of the longer (two empty lists match). */
function sameEnding(a: string[], b: string[]): boolean {
  const [shortest, longest] = a.length <= b.length ? [a, b] : [b, a];
  const diff = longest.length - shortest.length;
  if (shortest.length === 0) return diff === 0;
  return shortest.every((value, i) => longest[i + diff] === value);
}
