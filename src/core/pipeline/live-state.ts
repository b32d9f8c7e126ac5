// Live state as both doors hand it to the pipeline: the App a stored snapshot, the CLI a snapshot
// file or plain objects (`kubectl get -o json`, YAML), which say nothing of their scope and are
// taken as listing everything.
import type { KubeObject, ScopeError, ServedType } from '../model/index.js';
import { FULL_SCOPE, type SnapshotScope } from '../k8s/index.js';
import { screenObjects, type SkippedObject } from '../k8s/object-names.js';

export interface LiveState {
  items: KubeObject[];
  /** The cluster the snapshot says it is of. */
  cluster?: string;
  /** The repository (`owner/name`) the snapshot says it is for: sources whose URL names it are in scope. */
  repository?: string;
  /** When the snapshot was taken; undefined for objects that are no snapshot. */
  capturedAt?: string;
  /** What the snapshot listed; undefined for objects that are no snapshot. */
  scope?: { namespaces?: string[]; complete: boolean; errors: ScopeError[] };
  /** The API server's discovery, when the snapshot records it: which kinds are namespaced. */
  server?: { gitVersion?: string; resources?: readonly ServedType[] };
}

/** What the live state listed, as the diff and the plan ask it. */
export function scopeOf(live: LiveState): SnapshotScope {
  return live.scope ?? FULL_SCOPE;
}

/**
 * The live state without the objects whose apiVersion, kind or namespace cannot identify them, and
 * every object listed with what is wrong with its identity (an object whose only fault is its name
 * is still compared, planned and reported; codify never writes it as a file).
 */
export function screenLive<T extends LiveState>(live: T): { live: T; skipped: SkippedObject[] } {
  const { comparable, skipped } = screenObjects(live.items);
  return { live: comparable.length === live.items.length ? live : { ...live, items: comparable }, skipped };
}
