// Shared shapes of the snapshot agent: an API resource found by discovery, the scope a run
// covers, and the per-type figures reported at the end of a run.
import type { ScopeError } from '../core/model/index.js';

/** One listable resource type at its group's preferred version, as discovery reported it. */
export interface ApiResource {
  group: string;
  version: string;
  /** `apps/v1`, or `v1` for the core group. */
  groupVersion: string;
  /** Plural resource name used in URLs: `deployments`. */
  resource: string;
  kind: string;
  namespaced: boolean;
}

/** `apps/v1/statefulsets`: how a type is named in logs and in `scope.errors`. */
export function resourceId(resource: ApiResource): string {
  return `${resource.groupVersion}/${resource.resource}`;
}

export type SecretsMode = 'hash' | 'omit';

export interface SnapshotScope {
  /** Namespaces to list; empty = every namespace (default). */
  namespaces: string[];
  /** Kubernetes label selector passed to every list (default none). */
  labelSelector?: string;
  /** Only these types (`deployments`, `deployments.apps`, `Deployment`, `*.example.com`); empty = all (default). */
  include: string[];
  /** Never these types, on top of the default exclusions (default none). */
  exclude: string[];
  /** `hash` replaces Secret values with a keyed hash (default); `omit` leaves Secrets out. */
  secrets: SecretsMode;
}

/** A type that could not be listed: recorded in `scope.errors`, and the snapshot is marked incomplete. */
export interface ListError extends ScopeError {
  group: string;
  kind: string;
}

export interface TypeFigures {
  resource: string;
  items: number;
  /** Bytes of the items' JSON, before compression. */
  bytes: number;
  /** Objects dropped because a controller owns them. */
  owned: number;
}
