// Field-level comparison of one desired object with its live counterpart: walks both trees once,
// matches keyed lists by key, keeps noise out, and names each change's op, manager and cause.
import type { Cause, Conflict, FieldChange, KubeObject, PathSegment } from '../model/index.js';
import type { Config } from '../config/index.js';
import { groupOf, isPlainObject, ownValue, versionOf } from '../model/index.js';
import { defaultConfig } from '../config/index.js';
import { CLI_APPLIERS, isGitOpsApplier } from '../classify/managers.js';
import { DEFAULT_ARGO_TRACKING, liveStampKeys, type ArgoTracking, type DuringSync } from '../sources/index.js';
import { escapeSegment } from '../model/index.js';
import {
  canonicalKey,
  childOwn,
  fieldPath,
  filledByKubernetes,
  isFilledDefault,
  foldStringData,
  hasManagedFields,
  isEmpty,
  isQuantityField,
  isSecret,
  isZeroScalar,
  dropsZero,
  itemKey,
  itemOwn,
  LAST_APPLIED,
  lastAppliedOf,
  mainOwner,
  maskAt,
  ownersOf,
  quantitiesEqual,
  resolveListKeys,
  secretValuesEqual,
  valueAtSegments,
  withoutNoise,
  type DefaultLookup,
  type ListKeysLookup,
  type OwnNode,
  type Owner,
} from '../k8s/index.js';
import { buildOwnership } from '../classify/field-owners.js';

export interface DiffOptions {
  /** Appliers and human managers come from `drift`. Default: the default config. */
  config?: Config;
  /** Keys of custom resources' lists, from the CRDs of the snapshot and the repository. */
  customListKeys?: ListKeysLookup;
  /** Defaults of custom resources' fields, from the same CRDs. */
  customDefaults?: DefaultLookup;
  /** How Argo CD tracks what it applies (argocd-cm): which live labels are its stamps. Default: Argo CD 3's. */
  tracking?: ArgoTracking;
  /** Whether the object's GitOps controller was syncing it at a time (Argo CD's sync windows): then a
   * `kubectl apply` entry is the controller's own write, else a person's. Default: never known. */
  duringSync?: DuringSync;
}

/** Where the walk is: built as a chain so a path is only materialized when a change is recorded. */
interface Place {
  parent?: Place;
  /** JSON pointer so far. */
  pointer: string;
  segment?: PathSegment;
  /** Pointer pattern with `*` for list items: the list-keys table is keyed by it. */
  pattern: string;
  field?: string;
  parentField?: string;
  /** Ownership node; undefined where managedFields names nothing (inside atomic lists, unowned fields). */
  own?: OwnNode;
  /** True for keyed list items, whose `.` ownership is ownership of the item. */
  keyedItem: boolean;
  /** Owners of the whole value from the nearest atomic ancestor. */
  inherited: readonly Owner[];
}

interface Walk {
  group: string;
  kind: string;
  /** The live object's version: a merge fact of another version of the kind does not apply. */
  version: string;
  secret: boolean;
  changes: FieldChange[];
  conflicts: Conflict[];
  live: KubeObject;
  /** What `kubectl apply` last applied: the precise record of a client-side applier's fields. Parsed when first needed. */
  lastApplied?: { value: unknown };
  hasManagedFields: boolean;
  customListKeys?: ListKeysLookup;
  customDefaults?: DefaultLookup;
}

export function diffObject(
  desired: KubeObject,
  live: KubeObject,
  options: DiffOptions = {},
): { changes: FieldChange[]; conflicts: Conflict[] } {
  const config = options.config ?? defaultConfig();
  const secret = isSecret(desired) || isSecret(live);
  const walk: Walk = {
    group: groupOf(live.apiVersion ?? desired.apiVersion ?? ''),
    kind: live.kind ?? desired.kind,
    version: versionOf(live.apiVersion ?? desired.apiVersion ?? ''),
    secret,
    changes: [],
    conflicts: [],
    live,
    hasManagedFields: hasManagedFields(live),
    ...(options.customListKeys ? { customListKeys: options.customListKeys } : {}),
    ...(options.customDefaults ? { customDefaults: options.customDefaults } : {}),
  };
  const d = secret ? foldStringData(withoutNoise(desired)) : withoutNoise(desired);
  const l = secret ? foldStringData(withoutNoise(live)) : withoutNoise(live);
  // Both are shallow copies: dropping a top-level field leaves the objects themselves untouched.
  for (const field of filledByKubernetes(walk.group, walk.kind, desired)) {
    delete d[field];
    delete l[field];
  }
  compareMaps(walk, d, l, {
    pointer: '',
    pattern: '',
    own: buildOwnership(live, config, options.duringSync && ((time) => options.duringSync!(live, time))),
    keyedItem: false,
    inherited: [],
  });
  // A controller's stamp on the live object is the controller's, whether or not its object is in view.
  const stamps = liveStampKeys(live, options.tracking ?? DEFAULT_ARGO_TRACKING, appliedByGitOps(live, config));
  const changes = stamps.size ? walk.changes.filter((change) => !isStampChange(change, stamps)) : walk.changes;
  return { changes, conflicts: walk.conflicts };
}

/** Whether a GitOps applier (kustomize-controller, argocd-controller, helm-controller, …) wrote the object. */
function appliedByGitOps(live: KubeObject, config: Config): boolean {
  const entries = live.metadata?.managedFields;
  if (!Array.isArray(entries)) return false;
  return entries.some((entry) => typeof entry?.manager === 'string' && isGitOpsApplier(entry.manager, config));
}

/** A change of `metadata.labels.<key>` or `metadata.annotations.<key>` where the live object carries a stamp. */
function isStampChange(change: FieldChange, stamps: ReadonlySet<string>): boolean {
  const [metadata, map, key] = change.segments;
  return (
    change.segments.length === 3 &&
    metadata === 'metadata' &&
    typeof map === 'string' &&
    stamps.has(`${map}/${String(key)}`)
  );
}

function child(place: Place, field: string, parentOwners: readonly Owner[]): Place {
  const escaped = field.includes('~') || field.includes('/') ? escapeSegment(field) : field;
  return {
    parent: place,
    pointer: `${place.pointer}/${escaped}`,
    segment: field,
    pattern: `${place.pattern}/${escaped}`,
    field,
    parentField: place.field,
    own: childOwn(place.own, field),
    keyedItem: false,
    inherited: parentOwners,
  };
}

function item(
  place: Place,
  index: number,
  key: string | undefined,
  label: Record<string, string | number> | undefined,
  parentOwners: readonly Owner[],
): Place {
  return {
    parent: place,
    pointer: `${place.pointer}/${index}`,
    segment: label ? { key: label } : { index },
    pattern: `${place.pattern}/*`,
    field: place.field,
    parentField: place.parentField,
    own: key !== undefined ? itemOwn(place.own, key) : undefined,
    keyedItem: key !== undefined,
    inherited: parentOwners,
  };
}

function segmentsOf(place: Place): PathSegment[] {
  const out: PathSegment[] = [];
  for (let p: Place | undefined = place; p?.segment !== undefined; p = p.parent) out.push(p.segment);
  return out.reverse();
}

function ownersAt(_walk: Walk, place: Place): readonly Owner[] {
  return ownersOf(place.own);
}

/** Owners of the whole value at this place (leaves in fieldsV1). */
function wholeOwners(walk: Walk, place: Place): readonly Owner[] {
  const owners = ownersAt(walk, place);
  return owners.length === 0 || owners.every((o) => o.whole) ? owners : owners.filter((o) => o.whole);
}

/** Owners that hold this exact value: whole-value owners, and for keyed items the item owners. */
function exactOwners(walk: Walk, place: Place): readonly Owner[] {
  return place.keyedItem ? ownersAt(walk, place) : wholeOwners(walk, place);
}

/** Owners of the whole value here, or from the nearest atomic ancestor: who wrote what we see. */
function valueOwners(walk: Walk, place: Place): readonly Owner[] {
  const own = wholeOwners(walk, place);
  return own.length ? own : place.inherited;
}

function record(
  walk: Walk,
  place: Place,
  op: FieldChange['op'],
  desired: unknown,
  live: unknown,
  owner: Owner | undefined,
  owners: readonly Owner[],
  knownCause?: Cause,
): void {
  const mask = walk.secret ? maskAt(walk.live, place.pointer) : undefined;
  const cause: Cause = owner?.cause ?? knownCause ?? 'unknown';
  const change: FieldChange = { path: place.pointer, segments: segmentsOf(place), op, cause };
  if (desired !== undefined) change.desired = mask ?? desired;
  if (live !== undefined) change.live = mask ?? live;
  if (owner) {
    change.manager = owner.manager;
    if (owner.operation) change.operation = owner.operation;
    if (owner.time) change.time = owner.time;
  }
  const names = [...new Set(owners.map((o) => o.manager))];
  if (names.length) change.managers = names;
  walk.changes.push(change);
}

/** A zero (false, 0) the API server's encoding drops at this place: the same as no value. */
function droppedZero(walk: Walk, value: unknown, pattern: string): boolean {
  return isZeroScalar(value) && dropsZero(walk.group, walk.kind, walk.version, pattern);
}

function compare(walk: Walk, d: unknown, l: unknown, place: Place): void {
  // withoutNoise took the identity fields out of both sides: a metadata map left empty is our doing,
  // not the object's, so its fields are compared one by one (labels added, not the whole metadata).
  if (place.pointer === '/metadata' && isPlainObject(d) && isPlainObject(l)) return compareMaps(walk, d, l, place);
  const lEmpty = isEmpty(l);
  // Git's dropped zero is live's absence; against a value live holds, it is a value like any other.
  const dEmpty = isEmpty(d) || (lEmpty && droppedZero(walk, d, place.pattern));
  if (dEmpty && lEmpty) return;
  if (dEmpty) return liveOnly(walk, l, place);
  if (lEmpty) return record(walk, place, 'replace', d, undefined, undefined, []);
  checkConflict(walk, d, l, place);
  if (isPlainObject(d) && isPlainObject(l)) return compareMaps(walk, d, l, place);
  if (Array.isArray(d) && Array.isArray(l)) return compareLists(walk, d, l, place);
  if (!valuesEqual(walk, d, l, place)) {
    const owners = valueOwners(walk, place);
    record(walk, place, 'replace', d, l, mainOwner(owners), owners);
  }
}

function compareMaps(walk: Walk, d: Record<string, unknown>, l: Record<string, unknown>, place: Place): void {
  const whole = wholeOwners(walk, place);
  const inherited = whole.length ? whole : place.inherited;
  for (const field of Object.keys(d)) compare(walk, d[field], ownValue(l, field), child(place, field, inherited));
  for (const field of Object.keys(l))
    if (!Object.hasOwn(d, field)) liveOnly(walk, l[field], child(place, field, inherited));
}

/** A list's keys (resolveListKeys): Kubernetes', the CRD's, or those managedFields record. */
function keysOf(walk: Walk, pattern: string): string[] | undefined {
  const evidence = { live: walk.live, ...(walk.customListKeys ? { custom: walk.customListKeys } : {}) };
  return resolveListKeys(walk.group, walk.kind, walk.version, pattern, evidence);
}

function compareLists(walk: Walk, d: unknown[], l: unknown[], place: Place): void {
  const keys = keysOf(walk, place.pattern);
  const whole = wholeOwners(walk, place);
  const inherited = whole.length ? whole : place.inherited;
  const liveKeys = keys ? l.map((x) => itemKey(x, keys)) : [];
  const desiredKeys = keys ? d.map((x) => itemKey(x, keys)) : [];
  if (!keys || liveKeys.includes(undefined) || desiredKeys.includes(undefined)) {
    // Atomic: the list is one value. Items compare as desired ⊆ live, so defaulted sub-fields are noise.
    if (subsetEqual(walk, d, l, place)) return;
    const owners = valueOwners(walk, place);
    record(walk, place, 'replace', d, l, mainOwner(owners), owners);
    return;
  }
  const liveCanonical = liveKeys.map((key) => canonicalKey(key!));
  const liveByKey = new Map<string, number>();
  liveCanonical.forEach((key, i) => liveByKey.set(key, i));
  const matched = new Set<number>();
  d.forEach((desiredItem, i) => {
    const key = desiredKeys[i]!;
    const canonical = canonicalKey(key);
    const j = liveByKey.get(canonical);
    const at = item(place, i, canonical, labelOf(desiredItem, keys, key), inherited);
    if (j === undefined) return record(walk, at, 'replace', desiredItem, undefined, undefined, []);
    matched.add(j);
    compare(walk, desiredItem, l[j], at);
  });
  l.forEach((liveItem, j) => {
    if (!matched.has(j))
      liveOnly(walk, liveItem, item(place, j, liveCanonical[j], labelOf(liveItem, keys, liveKeys[j]!), inherited));
  });
}

/** The key fields as written in the item (codify finds the node by them), defaulted ones only if absent everywhere. */
function labelOf(
  value: unknown,
  keys: readonly string[],
  filled: Record<string, string | number>,
): Record<string, string | number> {
  const written: Record<string, string | number> = {};
  const record = value as Record<string, unknown>;
  for (const field of keys)
    if (record[field] !== undefined && filled[field] !== undefined) written[field] = filled[field]!;
  return Object.keys(written).length ? written : filled;
}

/** A field live has and Git does not: a hand edit (add), a planned removal (remove), or a default. */
function liveOnly(walk: Walk, l: unknown, place: Place): void {
  if (isEmpty(l) || droppedZero(walk, l, place.pattern)) return;
  if (isFilledDefault(walk.group, walk.kind, place.pattern, l)) return;
  // A key field of an item matched by its key (defaults filled in) holds the key both sides agree on.
  if (isMatchedKeyField(walk, place)) return;
  const crdDefault = walk.customDefaults?.(walk.group, walk.kind, walk.version, place.pattern);
  if (crdDefault && sameJson(crdDefault.value, l)) return;
  const owners = exactOwners(walk, place);
  const evidence = owners.filter((o) => isEvidence(walk, place, o));
  if (evidence.length) return record(walk, place, 'add', undefined, l, mainOwner(evidence), owners);
  const appliers = owners.filter((o) => o.role === 'applier');
  // An applier that owns a map with content it never set applied an empty map there (Flux's
  // normalization writes `spec: {}`, `strategy: {}`: fluxcd/pkg ssa/normalize): its content is the
  // server's, so look at each field instead.
  const appliedEmptyMap =
    isPlainObject(l) && !place.keyedItem && appliers.length > 0 && appliers.every((o) => o.operation === 'Apply');
  if (appliers.length && !appliedEmptyMap && isAppliedField(walk, place, appliers)) {
    return record(walk, place, 'remove', undefined, l, mainOwner(appliers), owners);
  }
  // Objects from before managedFields existed: the last-applied annotation is the only record.
  if (
    !walk.hasManagedFields &&
    walk.live.metadata?.annotations?.[LAST_APPLIED] !== undefined &&
    inLastApplied(walk, place)
  ) {
    return record(walk, place, 'remove', undefined, l, undefined, [], 'applier');
  }
  // A Secret key Git lacks is never a server default: the key set differs.
  if (walk.secret && place.parent?.pointer === '/data')
    return record(walk, place, 'add', undefined, l, mainOwner(owners), owners);
  if (isPlainObject(l)) {
    for (const field of Object.keys(l)) liveOnly(walk, l[field], child(place, field, place.inherited));
    return;
  }
  if (Array.isArray(l)) {
    const keys = keysOf(walk, place.pattern);
    if (!keys) return; // atomic: only ownership of the whole list is evidence, checked above
    l.forEach((liveItem, j) => {
      const key = itemKey(liveItem, keys);
      if (key)
        liveOnly(walk, liveItem, item(place, j, canonicalKey(key), labelOf(liveItem, keys, key), place.inherited));
    });
  }
}

/**
 * Whether an owner of a field Git lacks proves someone set it: a person's or an unknown manager's entry. A
 * hand `kubectl apply` (client-side) owns what it created with the object, defaults included: its
 * last-applied annotation says what it declared.
 */
function isEvidence(walk: Walk, place: Place, owner: Owner): boolean {
  if (owner.role !== 'other' || (owner.cause !== 'human' && owner.cause !== 'unknown')) return false;
  return !(CLI_APPLIERS as readonly string[]).includes(owner.manager) || inLastApplied(walk, place);
}

function isMatchedKeyField(walk: Walk, place: Place): boolean {
  const item = place.parent;
  if (!item?.keyedItem || place.field === undefined || !item.pattern.endsWith('/*')) return false;
  return keysOf(walk, item.pattern.slice(0, -2))?.includes(place.field) ?? false;
}

/**
 * Whether the applier really applied this field. A server-side Apply owns exactly what it applied;
 * an Update (client-side apply) also owns every default the server filled in, so for it only the
 * last-applied-configuration annotation tells what was applied.
 */
function isAppliedField(walk: Walk, place: Place, appliers: readonly Owner[]): boolean {
  if (appliers.some((o) => o.operation === 'Apply')) return true;
  return inLastApplied(walk, place);
}

/** Whether kubectl last applied this value itself (a map is only a container of applied fields). */
function inLastApplied(walk: Walk, place: Place): boolean {
  walk.lastApplied ??= { value: lastAppliedOf(walk.live) };
  if (walk.lastApplied.value === undefined) return false;
  const applied = valueAtSegments(walk.lastApplied.value, segmentsOf(place));
  if (isEmpty(applied)) return false;
  return place.keyedItem || !isPlainObject(applied);
}

/** Git declares a field that a controller owns in live: two managers, one field. */
function checkConflict(walk: Walk, d: unknown, l: unknown, place: Place): void {
  const here = ownersAt(walk, place);
  if (here.length === 0) return;
  const owners = here.filter((o) => o.whole && o.cause === 'controller' && o.role !== 'applier');
  if (!owners.length) return;
  const owner = mainOwner(owners)!;
  const path = place.pointer;
  walk.conflicts.push({
    path,
    segments: segmentsOf(place),
    manager: owner.manager,
    ...(owner.time ? { time: owner.time } : {}),
    desired: d,
    live: l,
    fix:
      `remove \`${fieldPath(segmentsOf(place), walk)}\` from Git (${owner.manager} owns it), ` +
      `or add an ignore rule for \`${path}\` with \`managers: [${owner.manager}]\``,
  });
}

function valuesEqual(walk: Walk, d: unknown, l: unknown, place: Place): boolean {
  if (d === l) return true;
  if (walk.secret && place.parent?.pointer === '/data') return secretValuesEqual(d, l);
  if (place.field !== undefined && isQuantityField(place.parentField, place.field) && quantitiesEqual(d, l))
    return true;
  // int-or-string (targetPort: 80 and "80") and numbers a manifest wrote as strings.
  if ((typeof d === 'number' && typeof l === 'string') || (typeof d === 'string' && typeof l === 'number'))
    return String(d) === String(l);
  return false;
}

/** desired ⊆ live: every field desired declares is equal in live; what live adds is a default. */
function subsetEqual(walk: Walk, d: unknown, l: unknown, place: Place): boolean {
  if (isEmpty(d)) return true; // desired declares nothing here
  if (isEmpty(l) && droppedZero(walk, d, place.pattern)) return true; // live's absence is that zero
  if (isPlainObject(d)) {
    if (!isPlainObject(l)) return false;
    return Object.keys(d).every((field) =>
      subsetEqual(walk, d[field], ownValue(l, field), {
        ...place,
        parentField: place.field,
        field,
        pattern: `${place.pattern}/${escapeSegment(field)}`,
      }),
    );
  }
  const items = { ...place, pattern: `${place.pattern}/*` };
  if (Array.isArray(d))
    return Array.isArray(l) && d.length === l.length && d.every((x, i) => subsetEqual(walk, x, l[i], items));
  return valuesEqual(walk, d, l, place);
}

/** Two JSON values alike, map keys in any order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}
