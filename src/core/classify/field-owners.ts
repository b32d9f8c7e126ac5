// Who owns a live field, as policy sees it: each managedFields entry's manager gets its cause (from the
// configured manager lists) and its role toward Git (applier, former applier, creator, other). The
// decoding of managedFields itself lives in k8s/managed-fields.ts.
import type { Cause, KubeObject, ManagedFieldsEntry } from '../model/index.js';
import type { Config } from '../config/index.js';
import { isPlainObject } from '../model/index.js';
import {
  creationOf,
  entriesOf,
  type CreatedBy,
  type OwnerRole,
  type OwnNode,
  type OwnershipIndex,
} from '../k8s/managed-fields.js';
import { classifyManager, isGitOpsApplier, isKubectlApply } from './managers.js';

function roleOf(entry: ManagedFieldsEntry, cause: Cause, created: string | undefined): OwnerRole {
  if (cause === 'applier') return 'applier';
  // An Update at the creation time is the create itself: its fieldsV1 lists every defaulted field.
  if (entry.operation === 'Update' && created !== undefined && entry.time === created) return 'creator';
  return 'other';
}

/** Whether a managedFields entry holds one of the object's finalizers (`f:metadata: {f:finalizers: {v:"…"}}`). */
function holdsFinalizer(entry: ManagedFieldsEntry): boolean {
  const metadata = isPlainObject(entry.fieldsV1) ? entry.fieldsV1['f:metadata'] : undefined;
  const finalizers = isPlainObject(metadata) ? metadata['f:finalizers'] : undefined;
  return isPlainObject(finalizers) && Object.keys(finalizers).some((member) => member.startsWith('v:'));
}

/**
 * The object's own controllers, as its managedFields show them: the managers that write its status
 * (the status subresource is its controller's to write) or hold one of its finalizers (the controller
 * that cleans up after it). A Crossplane provider late-initializes `spec.forProvider` with the same
 * manager that writes the managed resource's status and holds `finalizer.managedresource.crossplane.io`
 * (crossplane-runtime pkg/reconciler/managed/reconciler.go: client.Update, client.Status().Update,
 * resource.APIFinalizer); Crossplane sets a claim's `resourceRef` likewise.
 */
function ownControllersOf(live: KubeObject): Set<string> {
  const managers = new Set<string>();
  for (const entry of entriesOf(live)) {
    if (entry?.manager && (entry.subresource === 'status' || holdsFinalizer(entry))) managers.add(entry.manager);
  }
  return managers;
}

/**
 * A manager's cause on this object: its name's cause, except that a manager no list knows (`unknown`)
 * is a controller when the object's managedFields show it is the object's own (ownControllersOf). A
 * person's tool, an applier or a known controller keeps its cause; any other manager stays unknown.
 */
function causeOn(
  manager: string,
  operation: string | undefined,
  controllers: ReadonlySet<string>,
  config: Config,
): Cause {
  const cause = classifyManager(manager, config, operation);
  return cause === 'unknown' && controllers.has(manager) ? 'controller' : cause;
}

/**
 * `kubectl apply` (client-side, or `--server-side` as `kubectl`) on an object a GitOps controller applies is
 * a person's — unless it happened while that controller was syncing the object (`duringSync`: Argo CD's
 * sync windows), which makes it the controller's own write. Without GitOps on the object it is CI applying Git.
 */
function handApplied(
  entry: ManagedFieldsEntry,
  cause: Cause,
  gitOpsPresent: boolean,
  duringSync: ((time: string) => boolean) | undefined,
): Cause {
  if (cause !== 'applier' || !gitOpsPresent || !isKubectlApply(entry.manager ?? '')) return cause;
  return entry.time && duringSync?.(entry.time) ? 'applier' : 'human';
}

/** `duringSync`: whether the object's GitOps controller was syncing it at a time (default: never known). */
export function buildOwnership(
  live: KubeObject,
  config: Config,
  duringSync?: (time: string) => boolean,
): OwnershipIndex {
  const root: OwnNode = { refs: [], owners: [] };
  const entries = entriesOf(live);
  const gitOpsPresent = entries.some((entry) => isGitOpsApplier(entry.manager ?? '', config));
  const created = live.metadata?.creationTimestamp;
  const controllers = ownControllersOf(live);
  for (const entry of entries) {
    if (!entry || !isPlainObject(entry.fieldsV1)) continue;
    if (entry.subresource === 'status') continue; // status is never compared
    const manager = entry.manager ?? '';
    const cause = handApplied(entry, causeOn(manager, entry.operation, controllers, config), gitOpsPresent, duringSync);
    const owner = {
      manager,
      operation: entry.operation,
      time: entry.time,
      subresource: entry.subresource,
      cause,
      role: roleOf(entry, cause, created),
    };
    const owners = { whole: { ...owner, whole: true }, item: { ...owner, whole: false } };
    root.refs.push({ entry: owners, node: entry.fieldsV1 });
  }
  return root;
}

/** The manager that created the object (the earliest managedFields entry), and its cause. */
export function creatorOf(live: KubeObject, config: Config): CreatedBy | undefined {
  const first = creationOf(live);
  if (!first) return undefined;
  const cause = causeOn(first.manager, first.operation, ownControllersOf(live), config);
  return { manager: first.manager, cause, ...(first.time ? { time: first.time } : {}) };
}
