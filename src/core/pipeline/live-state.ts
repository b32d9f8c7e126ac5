// Live state as both doors hand it to the pipeline: the App a stored snapshot, the CLI a snapshot
// file or plain objects (`kubectl get -o json`, YAML), which say nothing of their scope and are
// taken as listing everything.
import type { LiveState } from '../model/index.js';
import { FULL_SCOPE, type SnapshotScope } from '../k8s/index.js';
import { screenObjects, type SkippedObject } from '../k8s/object-names.js';

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
