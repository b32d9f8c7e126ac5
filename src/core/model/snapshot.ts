// The snapshot document an agent uploads (driftback.dev/v1). See DESIGN.md "Snapshot document".
import { z } from 'zod';
import type { KubeObject } from './object.js';
import { PROTOTYPE_KEYS } from './own.js';

export const SNAPSHOT_API_VERSION = 'driftback.dev/v1';

const kubeObjectSchema = z
  .object({
    apiVersion: z.string().min(1, 'apiVersion is required'),
    kind: z.string().min(1, 'kind is required'),
    metadata: z
      .object({ name: z.string().min(1, 'metadata.name is required'), namespace: z.string().optional() })
      .passthrough(),
  })
  .passthrough();

export const snapshotSchema = z
  .object({
    apiVersion: z.literal(SNAPSHOT_API_VERSION),
    kind: z.literal('Snapshot'),
    repository: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'expected owner/name'),
    cluster: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'expected a cluster name of letters, digits, ".", "_" or "-"'),
    capturedAt: z.iso.datetime({ offset: true }),
    agent: z.object({ version: z.string() }).passthrough().optional(),
    server: z
      .object({
        gitVersion: z.string().optional(),
        resources: z
          .array(
            z
              .object({
                group: z.string(),
                version: z.string().optional(),
                kind: z.string().min(1, 'kind is required'),
                resource: z.string().optional(),
                namespaced: z.boolean(),
              })
              .passthrough(),
          )
          .optional(),
      })
      .passthrough()
      .optional(),
    scope: z
      .object({
        namespaces: z.array(z.string()).optional(),
        complete: z.boolean(),
        errors: z
          .array(z.object({ resource: z.string(), reason: z.string(), message: z.string().optional() }).passthrough())
          .default([]),
        excluded: z
          .array(z.object({ resource: z.string(), group: z.string().optional(), kind: z.string().optional() }))
          .optional(),
      })
      .passthrough(),
    items: z.array(kubeObjectSchema),
  })
  .strict();

export interface ScopeError {
  resource: string;
  /** The type's group and kind, when the agent knew them (exact matching instead of a plural guess). */
  group?: string;
  kind?: string;
  reason: string;
  message?: string;
}

/**
 * One resource type the API server serves, as its discovery (`/api/v1`, `/apis/<group>/<version>`)
 * says: the agent records every type it discovered, so the App knows which kinds are namespaced.
 */
export interface ServedType {
  /** '' for the core group. */
  group: string;
  /** The version discovery preferred. */
  version?: string;
  kind: string;
  /** Plural resource name: `deployments`. */
  resource?: string;
  namespaced: boolean;
}

/** A type the agent discovered and did not list on purpose (its include/exclude settings): absence proves nothing. */
export interface ExcludedType {
  resource: string;
  group?: string;
  kind?: string;
}

export interface Snapshot {
  apiVersion: typeof SNAPSHOT_API_VERSION;
  kind: 'Snapshot';
  repository: string;
  cluster: string;
  capturedAt: string;
  agent?: { version: string; [k: string]: unknown };
  /** The API server: its version, and the types its discovery serves (agents before discovery was recorded send none). */
  server?: { gitVersion?: string; resources?: ServedType[]; [k: string]: unknown };
  scope: {
    namespaces?: string[];
    complete: boolean;
    errors: ScopeError[];
    excluded?: ExcludedType[];
    [k: string]: unknown;
  };
  items: KubeObject[];
}

export interface Problem {
  /** Path in the document, e.g. `items[3].metadata.name`. */
  path: string;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

export function formatZodPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out || '(document)';
}

/**
 * Deepest nesting accepted in a snapshot. Real objects (CRD schemas included) stay well below 100
 * levels; far deeper JSON parses fine but overflows the stack of every recursive reader after it
 * (storing, diffing), so it is refused here with the path where it gets too deep.
 */
export const MAX_SNAPSHOT_DEPTH = 200;

type Hazard = { type: 'deep' | 'key'; path: Array<string | number> };

/**
 * The path of the first value nested deeper than `limit`, or of the first key that names a member
 * of Object.prototype. Recursive, but it never descends past `limit`, so the stack stays shallow
 * however deep the input is; no allocation on the way down.
 */
function hazardAt(value: unknown, limit: number, depth = 0): Hazard | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= limit) return { type: 'deep', path: [] };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const below = hazardAt(value[i], limit, depth + 1);
      if (below) return { type: below.type, path: [i, ...below.path] };
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) return { type: 'key', path: [key] };
    const below = hazardAt((value as Record<string, unknown>)[key], limit, depth + 1);
    if (below) return { type: below.type, path: [key, ...below.path] };
  }
  return undefined;
}

/**
 * How far ahead of the App's clock a snapshot's capturedAt may be: clocks of clusters and of the App
 * drift apart by seconds under NTP; a snapshot from further ahead would outrank every honest upload
 * after it (each would be "older than the latest") and freeze the cluster's state.
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** A problem when `capturedAt` is later than `receivedAt` plus the clock-skew allowance. */
export function capturedAtProblem(capturedAt: string, receivedAt: Date): Problem | undefined {
  const ahead = Date.parse(capturedAt) - receivedAt.getTime();
  if (!(ahead > MAX_CLOCK_SKEW_MS)) return undefined;
  return {
    path: 'capturedAt',
    message: `${capturedAt} is ${Math.round(ahead / 60_000)} minutes after the App received it (${receivedAt.toISOString()}), beyond the ${MAX_CLOCK_SKEW_MS / 60_000}-minute clock-skew allowance: set the cluster's clock right (NTP) and upload again`,
  };
}

/**
 * Validates an uploaded snapshot; problems list every path that is wrong, not only the first. Only a
 * document that is not a snapshot is refused: what is wrong with one object's identity (a name the
 * API server would reject, one that is no file name) is the object's own, listed by screenObjects.
 */
export function parseSnapshot(value: unknown): Parsed<Snapshot> {
  const hazard = hazardAt(value, MAX_SNAPSHOT_DEPTH);
  if (hazard?.type === 'deep') {
    const shown = formatZodPath(hazard.path.slice(0, 6)) + (hazard.path.length > 6 ? '…' : '');
    return {
      ok: false,
      problems: [
        {
          path: shown,
          message: `nested more than ${MAX_SNAPSHOT_DEPTH} levels deep: no Kubernetes object is; send the objects as the API server returns them`,
        },
      ],
    };
  }
  if (hazard?.type === 'key') {
    const key = String(hazard.path.at(-1));
    const message = `the key "${key}" is refused (it names a member of JavaScript's Object.prototype, a way to corrupt the App): rename the key, or leave its type out with the agent's DRIFTBACK_EXCLUDE`;
    return { ok: false, problems: [{ path: formatZodPath(hazard.path), message }] };
  }
  const result = snapshotSchema.safeParse(value);
  if (result.success) return { ok: true, value: result.data as unknown as Snapshot };
  return {
    ok: false,
    problems: result.error.issues
      .slice(0, 100)
      .map((issue) => ({ path: formatZodPath(issue.path), message: issue.message })),
  };
}
