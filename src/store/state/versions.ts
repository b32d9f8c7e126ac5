// Stored state carries the version of its shape (the `version` column of `state`). A row is read
// at its version and brought to STATE_VERSION one step at a time, then parsed; every write is at
// STATE_VERSION. A step is never edited once released: a new shape is a new step at the end.
import type { ZodError } from 'zod';
import { STATE_SCHEMAS, type StateKind, type StateOf } from './schemas.js';

/** A state key as the codec sees it (StateKey of one kind). */
type KeyOf<K extends StateKind> = { kind: K; repository: string; cluster?: string };

export const STATE_VERSION = 2;

type Raw = Record<string, unknown>;
type Step = (kind: StateKind, value: Raw) => Raw;

/** `Kind/ns/name` or `Kind/name`, as version 1 stored resources; the group was never written. */
export function keyFromDisplay(text: string): { group: string; kind: string; namespace: string; name: string } {
  const parts = text.split('/');
  if (parts.length >= 3) return { group: '', kind: parts[0], namespace: parts[1], name: parts.slice(2).join('/') };
  return { group: '', kind: parts[0] ?? text, namespace: '', name: parts[1] ?? '' };
}

/**
 * Steps by the version they read: STEPS[1] turns version 1 into version 2.
 * 1 → 2: a conflict's resource was a display string (`Kind/ns/name`, the API group lost); it becomes
 * a resource key, with the group unknown (''). Fields nothing read are no longer kept: the cluster's
 * head sha and snapshot, first open PR, health counts (the gauges count from the snapshot, as the dashboard
 * does), drift totals, declined count and reported list, a conflict's fix, a
 * branch's group and PR URL, an open PR's branch and URL; the repository's config check time and
 * problems (the cluster's problems hold them). The schema drops them on read. The watch's
 * reconcilers not reconciling were keyed `<cluster>/<namespace>/<name>`: they become a list per
 * cluster of reconciler references (their kind unknown until the next watch sees them).
 */
const STEPS: Record<number, Step> = {
  1: (kind, value) => {
    if (kind === 'watch') return watchFromVersion1(value);
    if (kind !== 'cluster') return value;
    // Version 1's reported list named resources by display string; the next reconcile writes it anew.
    const drift = value.drift && typeof value.drift === 'object' ? { ...(value.drift as Raw) } : undefined;
    if (drift) delete drift.reported;
    const withDrift = drift ? { ...value, drift } : value;
    if (!Array.isArray(value.conflicts)) return withDrift;
    const conflicts = (value.conflicts as Raw[]).map((conflict) => ({
      ...conflict,
      resource: typeof conflict.resource === 'string' ? keyFromDisplay(conflict.resource) : conflict.resource,
    }));
    return { ...withDrift, conflicts };
  },
};

function watchFromVersion1(value: Raw): Raw {
  if (!value.notReconciling || typeof value.notReconciling !== 'object') return value;
  const byCluster: Record<string, Raw[]> = {};
  for (const [id, entry] of Object.entries(value.notReconciling as Record<string, Raw>)) {
    const [cluster, namespace, ...name] = id.split('/');
    (byCluster[cluster] ??= []).push({ ...entry, reconciler: { namespace: namespace ?? '', name: name.join('/') } });
  }
  return { ...value, notReconciling: byCluster };
}

export class StateInvalidError extends Error {
  constructor(key: KeyOf<StateKind>, version: number, detail: string) {
    const where =
      key.kind === 'cluster' ? `${key.repository} cluster ${key.cluster}` : `${key.repository} (${key.kind})`;
    super(`stored ${key.kind} state of ${where} (version ${version}) does not parse: ${detail}`);
    this.name = 'StateInvalidError';
  }
}

function problems(error: ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ');
}

/** A stored row (its JSON value and version) as the current shape. */
export function decodeState<K extends StateKind>(key: KeyOf<K>, version: number, value: unknown): StateOf[K] {
  if (version > STATE_VERSION) {
    const detail = `written by a newer driftback (this one reads up to version ${STATE_VERSION})`;
    throw new StateInvalidError(key, version, detail);
  }
  let raw = (typeof value === 'string' ? JSON.parse(value) : value) as Raw;
  for (let at = version; at < STATE_VERSION; at++) raw = STEPS[at](key.kind, raw);
  const parsed = STATE_SCHEMAS[key.kind].safeParse(raw);
  if (!parsed.success) throw new StateInvalidError(key, version, problems(parsed.error));
  return parsed.data as StateOf[K];
}

/** The JSON text written for a state, checked against its schema. */
export function encodeState<K extends StateKind>(key: KeyOf<K>, state: StateOf[K]): string {
  const parsed = STATE_SCHEMAS[key.kind].safeParse(state);
  if (!parsed.success) throw new StateInvalidError(key, STATE_VERSION, problems(parsed.error));
  return JSON.stringify(parsed.data);
}

/** The row a state lives in: repository names compare in lower case, as GitHub's do. */
export function stateRow(key: KeyOf<StateKind>): { repository: string; cluster: string } {
  const cluster = key.kind === 'cluster' ? (key.cluster ?? '') : key.kind === 'repository' ? '' : '~watch';
  return { repository: key.repository.toLowerCase(), cluster };
}
