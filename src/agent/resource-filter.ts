// Which discovered types a run lists: the user's include/exclude lists on top of the default
// exclusions (types that are generated, churn constantly, or hold no desired state).
import { isSecret } from '../core/k8s/index.js';
import type { ApiResource, SnapshotScope } from './types.js';

/**
 * Excluded unless named in `include`. `resource` or `resource.group`; a bare name matches in every group.
 * Events, leases, endpoints and endpoint slices change every few seconds and are never in Git;
 * reviews are write-only; nodes, CSI and metrics objects are written by the cluster itself.
 */
export const DEFAULT_EXCLUDES: readonly string[] = [
  'events',
  'events.events.k8s.io',
  'leases.coordination.k8s.io',
  'endpoints',
  'endpointslices.discovery.k8s.io',
  'componentstatuses',
  'bindings',
  'tokenreviews.authentication.k8s.io',
  'selfsubjectreviews.authentication.k8s.io',
  'selfsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectrulesreviews.authorization.k8s.io',
  'subjectaccessreviews.authorization.k8s.io',
  'localsubjectaccessreviews.authorization.k8s.io',
  'controllerrevisions.apps',
  'nodes',
  'csinodes.storage.k8s.io',
  'csistoragecapacities.storage.k8s.io',
  'volumeattachments.storage.k8s.io',
  'ipaddresses.networking.k8s.io',
  'storageversions.internal.apiserver.k8s.io',
  '*.metrics.k8s.io',
];

/**
 * True when `pattern` names the type. Patterns: `deployments` (any group), `Deployment` (kind,
 * any group), `deployments.apps`, `apps/v1/deployments`, `*.example.com` (every type of a group).
 * Matching is case-insensitive.
 */
export function matchesType(pattern: string, resource: ApiResource): boolean {
  const wanted = pattern.trim().toLowerCase();
  if (!wanted) return false;
  const name = resource.resource.toLowerCase();
  const kind = resource.kind.toLowerCase();
  const group = resource.group.toLowerCase();
  if (wanted.includes('/')) return wanted === `${resource.groupVersion}/${resource.resource}`.toLowerCase();
  const dot = wanted.indexOf('.');
  if (dot < 0) return wanted === name || wanted === kind;
  const head = wanted.slice(0, dot);
  const tail = wanted.slice(dot + 1);
  if (tail !== group) return false;
  return head === '*' || head === name || head === kind;
}

/** The types to list, in a stable order (core first, then by group and name). */
export function selectResources(resources: ApiResource[], scope: SnapshotScope): ApiResource[] {
  const selected = resources.filter((resource) => {
    if (scope.secrets === 'omit' && isSecret(resource)) return false;
    if (scope.exclude.some((pattern) => matchesType(pattern, resource))) return false;
    if (scope.include.length > 0) return scope.include.some((pattern) => matchesType(pattern, resource));
    return !DEFAULT_EXCLUDES.some((pattern) => matchesType(pattern, resource));
  });
  return selected.sort((a, b) =>
    a.group === b.group ? a.resource.localeCompare(b.resource) : a.group.localeCompare(b.group),
  );
}

/**
 * True when no type of `group` can be selected: the whole group is excluded (`*.group`), or an
 * include list is given and every entry names another group. Bare names (`deployments`) may match
 * in any group, so they keep every group in play.
 */
export function isGroupOutOfScope(group: string, scope: SnapshotScope): boolean {
  const wholeGroup = (pattern: string) => pattern.trim().toLowerCase() === `*.${group.toLowerCase()}`;
  if (scope.exclude.some(wholeGroup)) return true;
  if (scope.include.length > 0)
    return scope.include.every(
      (pattern) => namedGroup(pattern) !== undefined && namedGroup(pattern) !== group.toLowerCase(),
    );
  return DEFAULT_EXCLUDES.some(wholeGroup);
}

/** The group a pattern names explicitly, or undefined for a bare name or kind. */
function namedGroup(pattern: string): string | undefined {
  const wanted = pattern.trim().toLowerCase();
  if (wanted.includes('/')) {
    const parts = wanted.split('/');
    return parts.length === 3 ? parts[0] : '';
  }
  const dot = wanted.indexOf('.');
  return dot < 0 ? undefined : wanted.slice(dot + 1);
}
