// Who created and who manages a live object: a source, a Helm release, an operator or controller, the
// cluster itself, the agent, or a person. Only a person's object can be codified as a new file; every
// other owner is named in reports ("managed by Helm release podinfo/podinfo") and never proposed.
import type { Config } from '../config/index.js';
import type { KubeObject, ObjectOwner, ResourceKey, SyncHook } from '../model/index.js';
import { isPlainObject, keyOf } from '../model/index.js';
import { classifyManager, isGitOpsApplier } from '../classify/managers.js';
import { creationOf, isClusterMade } from '../k8s/index.js';
import { sourceRefText, stampedSource, type ArgoTracking } from '../sources/index.js';
import { clusterMadeBy } from './cluster.js';
import { isAgentObject } from './agent-install.js';

const NONE: ReadonlySet<string> = new Set();
import { helmReleaseOf, type HelmIndex } from './helm.js';
import type { ClaimTemplateIndex } from './claim-templates.js';

export interface OwnershipContext {
  config: Config;
  /**
   * The source that manages an object: named by a source's inventory (Flux `status.inventory`, Argo CD
   * `status.resources`) or its stamps. Undefined when no source claims it.
   */
  sourceOf?: (key: ResourceKey, object: KubeObject) => string | undefined;
  /** Helm releases seen in the snapshot: their release Secrets and helm-controller inventories. */
  helm?: HelmIndex;
  /** How Argo CD tracks what it applies (argocd-cm in the snapshot): which stamps name an Application. */
  tracking?: ArgoTracking;
  /** The claims StatefulSets make from their volumeClaimTemplates (a claim's template, by name). */
  claims?: ClaimTemplateIndex;
  /** The namespace the agent runs in by default: everything made there is the agent's. Default: `driftback`. */
  agentNamespace?: string;
  /** The objects the agent's CronJobs use, in any namespace (agentObjectsOf). Default: none. */
  agentObjects?: ReadonlySet<string>;
  /** Hooks the repository declares, by keyId: their live objects are hooks whatever they carry. */
  hooks?: ReadonlyMap<string, SyncHook>;
}

/** The source a controller's stamps name (core/sources' identity), as its text, when the object carries one. */
export function stampedSourceName(object: KubeObject, tracking?: ArgoTracking): string | undefined {
  const ref = stampedSource(object, tracking);
  return ref ? sourceRefText(ref) : undefined;
}

function creator(object: KubeObject): { manager?: string; time?: string } {
  const created = creationOf(object);
  return created ? { manager: created.manager, ...(created.time ? { time: created.time } : {}) } : {};
}

/** Managers of GitOps tools' own command lines: what they create belongs to that tool's install. */
const GITOPS_TOOL_MANAGERS: Readonly<Record<string, string>> = { flux: 'Flux (bootstrap)', argocd: 'Argo CD' };

/** The namespaces GitOps tools' install guides create for them. */
const GITOPS_NAMESPACES: Readonly<Record<string, string>> = { 'flux-system': 'Flux', argocd: 'Argo CD' };

/** Labels GitOps tools put on their own install objects. */
function gitOpsInstall(object: KubeObject): string | undefined {
  if (object.kind === 'Namespace' && object.apiVersion === 'v1') {
    const name = object.metadata?.name ?? '';
    if (GITOPS_NAMESPACES[name]) return GITOPS_NAMESPACES[name];
  }
  const partOf = object.metadata?.labels?.['app.kubernetes.io/part-of'];
  if (partOf === 'flux') return 'Flux';
  if (partOf === 'argocd') return 'Argo CD';
  return undefined;
}

/** Who created and manages a live object. */
export function ownerOf(object: KubeObject, context: OwnershipContext): ObjectOwner {
  const key = keyOf(object);
  const made = creator(object);
  const source = context.sourceOf?.(key, object) ?? stampedSourceName(object, context.tracking);
  if (source) return { class: 'source', name: source, evidence: 'managed by a source', ...made };

  if (isClusterMade(object)) {
    return { class: 'cluster', name: 'kube-controller-manager', evidence: 'made in every namespace', ...made };
  }
  const cluster = clusterMadeBy(object);
  if (cluster) return { class: 'cluster', name: cluster.name, evidence: cluster.evidence, ...made };
  if (isAgentObject(object, context.agentObjects ?? NONE, context.agentNamespace ?? 'driftback')) {
    return { class: 'agent', name: 'driftback', evidence: "the driftback agent's install", ...made };
  }

  const release = helmReleaseOf(object, context.helm);
  if (release) return { class: 'helm', name: release.name, evidence: release.evidence, ...made };

  const install = gitOpsInstall(object);
  if (install) return { class: 'operator', name: install, evidence: `part of ${install}'s install`, ...made };
  const refs = object.metadata?.ownerReferences;
  if (Array.isArray(refs) && refs.length > 0) {
    const ref = refs.find((r) => isPlainObject(r)) ?? refs[0]!;
    const name = object.metadata?.labels?.['app.kubernetes.io/managed-by'] ?? made.manager ?? `${ref.kind} ${ref.name}`;
    return { class: 'operator', name, evidence: `ownerReference to ${ref.kind} ${ref.name}`, ...made };
  }
  if (made.manager) {
    const tool = GITOPS_TOOL_MANAGERS[made.manager];
    if (tool) return { class: 'operator', name: tool, evidence: `created by ${made.manager}`, ...made };
    const created = creationOf(object);
    const cause = classifyManager(made.manager, context.config, created?.operation);
    // A GitOps applier created it (Argo CD's CreateNamespace, a pruned source's leftovers): a source's object.
    if (cause === 'applier' && isGitOpsApplier(made.manager, context.config)) {
      return { class: 'source', name: made.manager, evidence: `created by ${made.manager}`, ...made };
    }
    if (cause === 'controller' || cause === 'unknown') {
      return { class: 'operator', name: made.manager, evidence: `created by ${made.manager}, not a person`, ...made };
    }
    return { class: 'person', name: made.manager, evidence: `created by ${made.manager}`, ...made };
  }
  // No managedFields at all: objects from before they existed, or made by the control plane itself.
  return { class: 'person', name: 'unknown', evidence: 'no managedFields say who made it' };
}

/** How reports name an owner: "managed by Helm release podinfo/podinfo", "created by operator envoy-gateway". */
export function describeOwner(owner: ObjectOwner): string {
  switch (owner.class) {
    case 'source':
      return `managed by source ${owner.name}`;
    case 'helm':
      return `managed by Helm release ${owner.name}`;
    case 'operator':
      return `created by operator ${owner.name}`;
    case 'cluster':
      return `made by the cluster (${owner.name})`;
    case 'agent':
      return 'the driftback agent';
    case 'person':
      return `made by a person (${owner.name})`;
    case 'hook':
      return `run as ${owner.name}, not desired state`;
  }
}
