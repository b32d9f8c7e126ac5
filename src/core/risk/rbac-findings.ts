// RBAC escalation in one object: a Role or ClusterRole whose rules escalate, or a binding that grants
// such a role (or cluster-admin, admin) to a subject. A binding's role is looked up in the snapshot
// first (what the cluster grants now), then in Git.
import { describeSubject, POWERFUL_CLUSTER_ROLES, roleEscalations } from '../k8s/index.js';
import { groupOf, isPlainObject, type KubeObject, type PathSegment } from '../model/index.js';
import type { Finding } from './risk-findings.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** A role by its reference: `ClusterRole` by name, `Role` by namespace and name. */
export type RoleLookup = (kind: string, name: string, namespace: string) => KubeObject | undefined;

/** Roles of the snapshot, then of Git, by `Kind/namespace/name`. */
export function roleLookup(live: readonly KubeObject[], desired: readonly KubeObject[]): RoleLookup {
  const roles = new Map<string, KubeObject>();
  for (const object of [...desired, ...live]) {
    if (groupOf(object.apiVersion ?? '') !== RBAC_GROUP) continue;
    if (object.kind !== 'Role' && object.kind !== 'ClusterRole') continue;
    const namespace = object.kind === 'Role' ? (object.metadata?.namespace ?? '') : '';
    roles.set(`${object.kind}/${namespace}/${object.metadata?.name ?? ''}`, object);
  }
  return (kind, name, namespace) => roles.get(`${kind}/${kind === 'Role' ? namespace : ''}/${name}`);
}

/** What a role reference grants that escalates, in words; none when it does not (or is not found). */
function grantsOf(
  roleRef: Record<string, unknown>,
  namespace: string,
  clusterWide: boolean,
  roles: RoleLookup,
): string[] {
  const kind = String(roleRef.kind ?? '');
  const name = String(roleRef.name ?? '');
  const builtIn = kind === 'ClusterRole' ? POWERFUL_CLUSTER_ROLES[name] : undefined;
  if (builtIn) return [builtIn];
  return roleEscalations(roles(kind, name, namespace)?.rules, clusterWide);
}

/** A subject's identity, whatever order its fields are written in and whether apiGroup is defaulted. */
function subjectId(subject: unknown): string {
  if (!isPlainObject(subject)) return '';
  return [subject.kind, subject.namespace ?? '', subject.name].map((part) => String(part ?? '')).join('/');
}

function bindingFindings(object: KubeObject, roles: RoleLookup): Finding[] {
  const roleRef = isPlainObject(object.roleRef) ? object.roleRef : {};
  const clusterWide = object.kind === 'ClusterRoleBinding';
  const grants = grantsOf(roleRef, object.metadata?.namespace ?? '', clusterWide, roles);
  if (grants.length === 0) return [];
  const subjects = Array.isArray(object.subjects) ? object.subjects : [];
  const role = `${String(roleRef.kind)} ${String(roleRef.name)}`;
  const where = clusterWide ? 'in every namespace' : `in namespace ${object.metadata?.namespace ?? ''}`;
  const anchors: PathSegment[][] = [['subjects'], ['roleRef']];
  return subjects.map((subject) => ({
    code: 'rbac-escalation' as const,
    id: `grant:${subjectId(subject)}->${role}`,
    anchors,
    why: `grants ${role} (${grants.join('; ')}) ${where} to ${describeSubject(subject)}`,
  }));
}

export function rbacFindings(object: KubeObject, roles: RoleLookup): Finding[] {
  if (groupOf(object.apiVersion ?? '') !== RBAC_GROUP) return [];
  if (object.kind === 'RoleBinding' || object.kind === 'ClusterRoleBinding') return bindingFindings(object, roles);
  if (object.kind !== 'Role' && object.kind !== 'ClusterRole') return [];
  // A ClusterRole is how cluster-wide access is granted; a Role's Secrets stay in its namespace.
  return roleEscalations(object.rules, object.kind === 'ClusterRole').map((grant) => ({
    code: 'rbac-escalation' as const,
    id: `rules:${grant}`,
    anchors: [['rules']],
    why: `${object.kind} ${object.metadata?.name ?? ''} allows ${grant} to every subject bound to it`,
  }));
}
