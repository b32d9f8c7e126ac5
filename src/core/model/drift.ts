// The result of comparing desired with live: data, never flags. Rendering and writing only read it.
import type { ResourceKey } from './key.js';
import type { KubeObject } from './object.js';
import type { DesiredObject, NotRenderedSource } from './source.js';
import type { Health } from './health.js';

/** replace: both sides differ; add: live has a field Git lacks (set by a non-applier manager);
 *  remove: Git no longer declares a field the applier owns. */
export type ChangeOp = 'replace' | 'add' | 'remove';

export type Cause = 'human' | 'controller' | 'applier' | 'unknown';

/** A segment of a structured path: a map key, a keyed-list item (by its merge key fields), or an index. */
export type PathSegment = string | { key: Record<string, string | number> } | { index: number };

export interface FieldChange {
  /** JSON pointer for display and ignore rules; list items by index (desired index when the item exists there, else live). */
  path: string;
  /** The same path with keyed-list items named by their merge keys: how codify finds the node. */
  segments: PathSegment[];
  op: ChangeOp;
  desired?: unknown;
  live?: unknown;
  /** Who last wrote this field in live (from managedFields), when known. */
  manager?: string;
  operation?: string;
  time?: string;
  cause: Cause;
  /** Every manager that owns this field in live (ignore rules with `managers` match any of them). */
  managers?: string[];
  /** Set when an ignore rule matched: counted, never hidden silently. */
  ignored?: { reason: string };
  /** Set when the change is reported and never codified: an imperative action, an autoscaler's field, chart output. */
  reported?: Reported;
  /** Security-relevant drift: why a person must look at it before it may be codified. */
  risk?: Risk[];
  /**
   * Set when a person's decision on this item (`/driftback allow`) codifies a change that is otherwise
   * only reported (an emergency switch): `decided by <login>: <reason>`. Codified whatever drift.causes says.
   */
  decision?: string;
  /** What the GitOps controller that applies the object will do to this change, and when. */
  next?: NextMove;
}

/**
 * What a GitOps controller does next to a change people made: `undo` (Flux's next reconcile, Argo CD
 * self-heal), `undo-at-commit` (Argo CD automated sync without self-heal: at the next commit of a
 * source it reads), `keep` (it leaves the field alone), `wait` (suspended: nothing until resumed).
 */
export type NextAction = 'undo' | 'undo-at-commit' | 'keep' | 'wait';

export interface NextMove {
  /** The controller object, as people name it: `Flux Kustomization flux-system/apps`. */
  by: string;
  what: NextAction;
  /** When it happens at the latest, when the controller's status says (ISO 8601). */
  when?: string;
  /** In words, with the reason. */
  why: string;
  /** For `undo`: the command that stops the controller now (the first step of the emergency procedure). */
  suspend?: string;
  /** Set when the change outlived the time by which the controller should have undone it. */
  overdue?: boolean;
}

/** Whether the controller takes the change back unless a person acts (suspends it, or codifies it first). */
export function isUndoneNext(next: NextMove | undefined): boolean {
  return next?.what === 'undo' || next?.what === 'undo-at-commit';
}

/** Security-relevant drift, a classification on top of cause. Stable codes: tools and people match on them. */
export const RISK_CODES = ['rbac-escalation', 'image-registry', 'privilege', 'unknown-manager'] as const;

export type RiskCode = (typeof RISK_CODES)[number];

export interface Risk {
  code: RiskCode;
  /** In words, naming the field and the value: `containers[api].securityContext.privileged: true`. */
  why: string;
  /**
   * Set when an explicit decision lets it be codified (a `drift.allowRisky` entry, a person's decision
   * on the item): who decided and why. Undecided risky drift is never codified.
   */
  allowed?: string;
  /** Set when a person's decision on this item (not a config entry) allowed it: it is codified whatever drift.causes says. */
  decided?: true;
}

/** Whether any of the risks still waits for a person's decision. */
export function isUndecided(risk: readonly Risk[] | undefined): boolean {
  return risk?.some((entry) => entry.allowed === undefined) ?? false;
}

/** Why a change or an object is reported and never written into Git. */
export type ReportedCode =
  | 'imperative'
  | 'autoscaler'
  | 'helm'
  | 'ephemeral'
  | 'secret'
  /** A field Flux image automation writes (a `$imagepolicy` setter marker on its line). */
  | 'image-automation'
  /** An emergency switch flipped by hand (a CronJob suspended, KEDA paused): what it stops, never codified. */
  | 'emergency-switch'
  /** A field Git does not declare, on an object whose applier is not known to read this repository. */
  | 'applier-not-in-view'
  /** A person's change to an object a controller, an operator or the cluster made: no file holds it. */
  | 'made-by-controller'
  /** An object two Argo CD Applications render: each sync takes it from the other, neither's files win. */
  | 'shared-resource';

export interface Reported {
  code: ReportedCode;
  /** In words, for the PR body's "Reported, not codified" table. */
  reason: string;
}

/** Who created and manages a live object (`hook`: a sync hook's leftover, run by its tool, not desired state). */
export type OwnerClass = 'source' | 'helm' | 'operator' | 'cluster' | 'agent' | 'person' | 'hook';

export interface ObjectOwner {
  class: OwnerClass;
  /** The owner's name: `flux-system/apps`, `podinfo/podinfo`, `envoy-gateway`, `kubeadm`, `driftback`, a manager. */
  name: string;
  /** How it was told, in words: "ownerReference to GatewayClass eg", "Helm release labels and annotations". */
  evidence: string;
  /** The manager that created the object and when, when managedFields say. */
  manager?: string;
  time?: string;
}

/** A live object Git does not declare and that is not codified: its owner, and what is reported about it. */
export interface OwnedObject {
  key: ResourceKey;
  owner: ObjectOwner;
  /** A person's object that is never written as a file (a Pod, a hand-made Job): why. */
  reported?: Reported;
  /** Hand changes on an object another owner manages (chart output): reported with who and when. */
  changes?: FieldChange[];
  /** Security-relevant settings of a person's object that is never codified (a privileged Pod run by hand). */
  risk?: Risk[];
}

/** Git declares a field that another controller owns in live (HPA and spec.replicas). */
export interface Conflict {
  path: string;
  segments: PathSegment[];
  manager: string;
  time?: string;
  desired: unknown;
  live: unknown;
  /** What to do about it, in words. */
  fix: string;
}

export type ResourceStatus = 'in-sync' | 'modified' | 'missing' | 'extra';

export interface ResourceDiff {
  key: ResourceKey;
  status: ResourceStatus;
  /** Changes that count (not ignored). */
  changes: FieldChange[];
  /** Changes matched by an ignore rule. */
  ignored: FieldChange[];
  conflicts: Conflict[];
  /** Changes reported and never codified (imperative actions, an autoscaler's replicas). */
  reported?: FieldChange[];
  desired?: DesiredObject;
  live?: KubeObject;
  health?: Health;
  /** For `extra`: the manager that created the object (first manager in managedFields), and its cause. */
  createdBy?: { manager: string; cause: Cause; time?: string };
  /** For `extra`: security-relevant settings of the whole object (a binding to cluster-admin made by hand). */
  risk?: Risk[];
}

export interface DiffSummary {
  inSync: number;
  modified: number;
  missing: number;
  extra: number;
  ignored: number;
  conflicts: number;
}

export interface DiffResult {
  resources: ResourceDiff[];
  summary: DiffSummary;
  /** Types the snapshot could not list: nothing is claimed missing for them. */
  unlisted: string[];
  /** Live objects Git lacks that are not extra: each under its owner (Helm release, operator, cluster, agent). */
  owned?: OwnedObject[];
  /**
   * Parts of the source that were not rendered, and the live objects set aside because one of them
   * may have made them (they are neither extra nor drift).
   */
  notRendered?: { sources: NotRenderedSource[]; live: ResourceKey[] };
}

/** A drifted resource's live changes: its changed fields, or 1 for an object missing or extra as a whole. */
export function changeCount(resource: Pick<ResourceDiff, 'changes'>): number {
  return Math.max(1, resource.changes.length);
}
