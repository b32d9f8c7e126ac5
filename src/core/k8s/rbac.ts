// RBAC grants that let a subject escalate: the privilege escalation risks of the Kubernetes docs
// ("Role Based Access Control Good Practices": wildcards, listing Secrets, the escalate, bind and
// impersonate verbs) and the built-in roles that hold them by name (`cluster-admin`, `admin`:
// "User-facing roles" of "Using RBAC Authorization"). A rule is read as the authorizer reads it:
// `*` in verbs, apiGroups or resources matches everything (rbac/v1 PolicyRule).
import { isPlainObject } from '../model/index.js';

/** Verbs that bypass RBAC's own escalation checks or borrow another identity. */
export const ESCALATION_VERBS = ['escalate', 'bind', 'impersonate'] as const;

/** Verbs that reveal a Secret's data (`list` and `watch` return it too). */
export const SECRET_READ_VERBS = ['get', 'list', 'watch'] as const;

/** Built-in ClusterRoles that grant control of what they are bound to, whatever their rules say in a snapshot. */
export const POWERFUL_CLUSTER_ROLES: Readonly<Record<string, string>> = {
  'cluster-admin': 'full control of every resource',
  admin: 'full control of a namespace, its RoleBindings included',
};

/** Groups every request belongs to: a grant to them is a grant to anyone who can reach the API server. */
export const EVERYONE_GROUPS: Readonly<Record<string, string>> = {
  'system:authenticated': 'every signed-in user and ServiceAccount',
  'system:unauthenticated': 'anonymous requests',
};

export type RbacRule = Record<string, unknown>;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * What makes one rule an escalation, in words (`every verb on secrets`, `impersonate on serviceaccounts`),
 * or none. `clusterWide`: the rule applies in every namespace (a ClusterRole bound cluster-wide), so
 * reading Secrets counts.
 */
export function escalationsOf(rule: RbacRule, clusterWide: boolean): string[] {
  if (!isPlainObject(rule)) return [];
  const verbs = strings(rule.verbs);
  const resources = strings(rule.resources);
  const groups = strings(rule.apiGroups);
  if (resources.length === 0) return []; // nonResourceURLs only: no objects
  const on = resources.includes('*') ? 'every resource' : resources.join(', ');
  const found: string[] = [];
  if (verbs.includes('*')) found.push(`every verb on ${on}`);
  else if (resources.includes('*')) found.push(`${verbs.join(', ')} on every resource`);
  for (const verb of ESCALATION_VERBS) if (verbs.includes(verb) && !verbs.includes('*')) found.push(`${verb} on ${on}`);
  const coreGroup = groups.includes('') || groups.includes('*');
  const secrets = resources.includes('secrets') || resources.includes('*');
  const reads = SECRET_READ_VERBS.filter((verb) => verbs.includes(verb) || verbs.includes('*'));
  const named = strings(rule.resourceNames).length > 0;
  if (clusterWide && coreGroup && secrets && reads.length && !named && !found.length)
    found.push(`${reads.join(', ')} on every Secret in every namespace`);
  return found;
}

/** Every escalation a role's rules grant. */
export function roleEscalations(rules: unknown, clusterWide: boolean): string[] {
  return Array.isArray(rules)
    ? [...new Set(rules.flatMap((rule) => escalationsOf(rule as RbacRule, clusterWide)))]
    : [];
}

/** A binding's subject as people read it: `ServiceAccount shop/default`, `Group system:authenticated (anonymous requests)`. */
export function describeSubject(subject: unknown): string {
  if (!isPlainObject(subject)) return 'a subject';
  const kind = String(subject.kind ?? 'subject');
  const name = String(subject.name ?? '');
  const namespace = typeof subject.namespace === 'string' && subject.namespace ? `${subject.namespace}/` : '';
  const everyone = kind === 'Group' ? EVERYONE_GROUPS[name] : undefined;
  return `${kind} ${namespace}${name}${everyone ? ` (${everyone})` : ''}`;
}
