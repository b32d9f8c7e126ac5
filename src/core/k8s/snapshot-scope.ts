// What a snapshot saw, and so what it can prove: an object is present or absent in the cluster only
// if the snapshot listed its type in its namespace. Types it could not list (scope.errors, named like
// `apps/v1/statefulsets`, with the group and kind when the agent knew them) and namespaces it did not
// cover prove nothing. A snapshot marked incomplete without saying what it missed proves nothing
// about any type. A snapshot of some namespaces lists no cluster-scoped type but their Namespace
// objects. The diff (missing, extra) and the plan (create, prune) ask the same questions here.
import type { ResourceKey, ScopeError } from '../model/index.js';
import { isNamespace, namesType } from './kinds.js';

/** A type the snapshot could not list (`apps/v1/statefulsets`, `v1/secrets`, `secrets`); group/kind when known. */
export type UnlistedType = Pick<ScopeError, 'resource' | 'group' | 'kind'>;

/** What a snapshot says about its own coverage. A live input that is no snapshot covers everything. */
export interface SnapshotScope {
  /** Namespaces the snapshot listed; undefined or empty = every namespace. */
  namespaces?: readonly string[];
  complete: boolean;
  errors: readonly UnlistedType[];
  /** Types the agent left out on purpose (its include/exclude settings). */
  excluded?: readonly UnlistedType[];
}

export const FULL_SCOPE: SnapshotScope = { complete: true, errors: [] };

/**
 * Namespaces in scope: the cluster config's ∩ the snapshot's. Undefined = every namespace;
 * [] = none (the snapshot holds none of the configured ones).
 */
export function scopeNamespaces(
  configured: readonly string[] | undefined,
  captured: readonly string[] | undefined,
): string[] | undefined {
  const fromConfig = configured?.length ? [...configured] : undefined;
  const fromSnapshot = captured?.length ? [...captured] : undefined;
  if (!fromConfig) return fromSnapshot;
  if (!fromSnapshot) return fromConfig;
  return fromConfig.filter((namespace) => fromSnapshot.includes(namespace));
}

export interface Coverage {
  /** Namespaces both configured and listed (see scopeNamespaces). */
  namespaces: string[] | undefined;
  /** Whether an object with this key is in the cluster's configured namespaces (cluster-scoped objects always are). */
  inScope(key: Pick<ResourceKey, 'namespace'>): boolean;
  /** Whether the snapshot listed objects of this key's type where this key would be. */
  listed(key: ResourceKey): boolean;
  /** Whether the snapshot proves the presence or absence of this object. */
  proves(key: ResourceKey): boolean;
  /** The excluded type (`v1/endpoints`) this key's type is, when the agent left it out on purpose. */
  excludedType(key: Pick<ResourceKey, 'group' | 'kind'>): string | undefined;
  /** The types not listed, as people read them (`apps/v1/statefulsets`). */
  unlisted: string[];
}

/** The coverage of a snapshot for a cluster whose config lists `configured` namespaces. */
export function coverageOf(scope: SnapshotScope, configured?: readonly string[]): Coverage {
  const namespaces = scopeNamespaces(configured, scope.namespaces);
  const inside = configured?.length ? new Set(configured) : undefined;
  // Incomplete without saying what: every type may be the one that failed.
  const unknownGap = !scope.complete && scope.errors.length === 0;
  const unlisted = scope.errors.map((error) => error.resource);
  if (unknownGap) unlisted.push('(unknown: snapshot incomplete)');
  const captured = scope.namespaces?.length ? new Set(scope.namespaces) : undefined;
  const inScope = (key: Pick<ResourceKey, 'namespace'>): boolean =>
    !inside || key.namespace === '' || inside.has(key.namespace);
  const excludedType = (key: Pick<ResourceKey, 'group' | 'kind'>): string | undefined =>
    scope.excluded?.find((type) => namesType(type, key))?.resource;
  const listed = (key: ResourceKey): boolean => {
    if (unknownGap || scope.errors.some((error) => namesType(error, key)) || excludedType(key)) return false;
    if (!captured || key.namespace !== '') return !captured || captured.has(key.namespace);
    // The agent lists a namespace-scoped run's own Namespace objects, and no other cluster-scoped type.
    return isNamespace(key) && captured.has(key.name);
  };
  return { namespaces, inScope, listed, proves: (key) => inScope(key) && listed(key), excludedType, unlisted };
}
