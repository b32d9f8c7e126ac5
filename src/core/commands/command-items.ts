// The drift items a PR comment command can name: every change and object a drift PR proposes, holds
// back for a person's decision, or reports, with the evidence `explain` gives (manager, operation,
// time, cause, risk, the controller's next move) and the fingerprint a decision is recorded under.
// The reconcile keeps them with the cluster's state, so a command never renders the repository again.
import { fingerprintChange } from '../classify/index.js';
import type { CodifiedChange, ReportedChange } from '../codify/index.js';
import { fieldPath, fieldPathCovers, parseFieldPath } from '../k8s/index.js';
import {
  displayKey,
  isUndecided,
  keyId,
  type Cause,
  type FieldChange,
  type NextAction,
  type ResourceDiff,
  type ResourceKey,
  type RiskCode,
} from '../model/index.js';
import { resourceFingerprint, type DriftGroup } from '../pipeline/index.js';
import type { ObjectRef, Target } from './parse-command.js';

/** proposed: the drift PR writes it; held-back: security-relevant, waits for a decision; reported: never codified. */
export type ItemStatus = 'proposed' | 'held-back' | 'reported';

export interface CommandItem {
  /** The drift branch whose PR shows it. */
  branch: string;
  key: ResourceKey;
  /** As people read it (`spec.template.spec.containers[api].image`); '' = the whole object. */
  field: string;
  /** JSON pointer; '' = the whole object. */
  path: string;
  /** What a decision is recorded under; '' when no decision applies (an object nothing codifies). */
  fingerprint: string;
  /** `replace`, `add`, `remove` for a field; `extra` (made by hand) or `missing` for a whole object. */
  change: 'replace' | 'add' | 'remove' | 'extra' | 'missing';
  manager?: string;
  operation?: string;
  time?: string;
  cause: Cause;
  status: ItemStatus;
  /** Why it is held back or reported. */
  why?: string;
  risk?: Array<{ code: RiskCode; why: string; allowed?: string }>;
  next?: { by: string; what: NextAction; when?: string; why: string };
}

/** At most this many items are kept per cluster: a command names one object, and huge drift is summarised anyway. */
export const ITEMS_KEPT = 500;

function evidenceOf(
  change: FieldChange,
): Pick<CommandItem, 'manager' | 'operation' | 'time' | 'cause' | 'risk' | 'next'> {
  return {
    ...(change.manager ? { manager: change.manager } : {}),
    ...(change.operation ? { operation: change.operation } : {}),
    ...(change.time ? { time: change.time } : {}),
    cause: change.cause,
    ...(change.risk?.length ? { risk: change.risk.map((risk) => ({ ...risk })) } : {}),
    ...(change.next
      ? {
          next: {
            by: change.next.by,
            what: change.next.what,
            ...(change.next.when ? { when: change.next.when } : {}),
            why: change.next.why,
          },
        }
      : {}),
  };
}

function keyFields(key: ResourceKey): ResourceKey {
  return { group: key.group, kind: key.kind, namespace: key.namespace, name: key.name };
}

function fieldItem(branch: string, key: ResourceKey, change: FieldChange): Omit<CommandItem, 'status'> {
  return {
    branch,
    key: keyFields(key),
    field: fieldPath(change.segments.length ? change.segments : change.path, key),
    path: change.path,
    fingerprint: fingerprintChange(key, change),
    change: change.op,
    ...evidenceOf(change),
  };
}

function wholeItem(branch: string, key: ResourceKey, resource: ResourceDiff | undefined): Omit<CommandItem, 'status'> {
  const missing = resource?.status === 'missing';
  const creator = resource?.createdBy;
  const risk = resource?.risk?.length ? { risk: resource.risk.map((entry) => ({ ...entry })) } : {};
  return {
    branch,
    key: keyFields(key),
    field: '',
    path: '',
    fingerprint: (resource && resourceFingerprint(resource)) ?? '',
    change: missing ? 'missing' : 'extra',
    ...(creator?.manager ? { manager: creator.manager } : {}),
    ...(creator?.time ? { time: creator.time } : {}),
    cause: missing ? 'unknown' : (creator?.cause ?? 'unknown'),
    ...risk,
  };
}

function itemOf(
  branch: string,
  entry: CodifiedChange | ReportedChange,
  resources: ReadonlyMap<string, ResourceDiff>,
): Omit<CommandItem, 'status'> {
  if (entry.change) return fieldItem(branch, entry.key, entry.change);
  return wholeItem(branch, entry.key, resources.get(keyId(entry.key)));
}

function reportedItem(
  branch: string,
  entry: ReportedChange,
  resources: ReadonlyMap<string, ResourceDiff>,
): CommandItem {
  const item = itemOf(branch, entry, resources);
  const risk = entry.risk ?? item.risk;
  // An emergency switch waits for a person's decision as risky drift does: `allow` keeps it in Git.
  const waits = isUndecided(risk) || entry.change?.reported?.code === 'emergency-switch';
  const status: ItemStatus = waits ? 'held-back' : 'reported';
  return { ...item, ...(risk?.length ? { risk: risk.map((r) => ({ ...r })) } : {}), status, why: entry.reason };
}

/** The items of one drift group: what its PR codifies, then what it holds back or reports. */
function groupItems(group: Pick<DriftGroup, 'branch' | 'result' | 'codify'>): CommandItem[] {
  const resources = new Map(group.result.resources.map((resource) => [keyId(resource.key), resource]));
  return [
    ...group.codify.codified.map((entry): CommandItem => ({
      ...itemOf(group.branch, entry, resources),
      status: 'proposed',
    })),
    ...group.codify.reported.map((entry) => reportedItem(group.branch, entry, resources)),
  ];
}

/** Every item the cluster's drift PRs show, at most ITEMS_KEPT. */
export function commandItemsOf(groups: ReadonlyArray<Pick<DriftGroup, 'branch' | 'result' | 'codify'>>): CommandItem[] {
  return groups.flatMap(groupItems).slice(0, ITEMS_KEPT);
}

function sameObject(key: ResourceKey, ref: ObjectRef): boolean {
  return key.kind.toLowerCase() === ref.kind.toLowerCase() && key.namespace === ref.namespace && key.name === ref.name;
}

/**
 * A field named by the command: the item's field or pointer, or a field inside it (`containers[api]`);
 * a port without its protocol is the TCP one (`ports[8080]` names `ports[8080/TCP]`).
 */
function sameField(item: Pick<CommandItem, 'field' | 'path'>, field: string): boolean {
  if (field.startsWith('/')) return item.path === field || item.path.startsWith(`${field}/`);
  if (item.field === field || item.field.startsWith(`${field}.`) || item.field.startsWith(`${field}[`)) return true;
  const named = parseFieldPath(field);
  const printed = parseFieldPath(item.field);
  if (typeof named === 'string' || typeof printed === 'string' || named.length === 0) return false;
  return named.every((segment) => segment.text !== '*') && fieldPathCovers(named, printed);
}

/** The items a command's target names. */
export function matchItems<T extends Pick<CommandItem, 'key' | 'field' | 'path'>>(
  items: readonly T[],
  target: Target,
): T[] {
  return items.filter(
    (item) =>
      (!target.object || sameObject(item.key, target.object)) &&
      (target.field === undefined || sameField(item, target.field)),
  );
}

/** `Deployment/shop/cart spec.replicas`, or the object alone. */
export function itemLabel(item: Pick<CommandItem, 'key' | 'field'>): string {
  return item.field ? `${displayKey(item.key)} ${item.field}` : displayKey(item.key);
}

/** The objects items name, each once, in order. */
export function objectsOf(items: ReadonlyArray<Pick<CommandItem, 'key'>>): string[] {
  return [...new Set(items.map((item) => displayKey(item.key)))];
}
