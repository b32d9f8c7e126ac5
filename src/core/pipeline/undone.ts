// A person's change its controller was about to undo, followed to the next snapshot: when the value is
// gone there, the controller undid it, and reports say so ("a person's change was undone by Flux at
// ~12:14") instead of letting it vanish. What is followed is kept between snapshots by the App.
import { fingerprintChange, isGitOpsApplier } from '../classify/index.js';
import type { Config } from '../config/index.js';
import {
  isUndoneNext,
  keyId,
  keyOf,
  type DiffResult,
  type KubeObject,
  type PathSegment,
  type ResourceKey,
} from '../model/index.js';
import { resolveSegments } from '../ownership/index.js';

/** A change a controller will undo, as followed to the next snapshot. */
export interface WatchedChange {
  key: ResourceKey;
  path: string;
  segments: PathSegment[];
  /** The change's fingerprint (key, path, the person's value). */
  fingerprint: string;
  manager?: string;
  time?: string;
  /** The controller: `Flux Kustomization flux-system/apps`. */
  by: string;
}

/** A followed change whose value the latest snapshot no longer holds. */
export interface UndoneChange extends WatchedChange {
  /** About when: the controller's latest write to the object after the change, else the snapshot's time. */
  at: string;
  /** Whether `at` is the controller's write (true) or only the snapshot that first showed it gone. */
  exact: boolean;
}

/** The changes of this diff that their controller will undo: what the next snapshot is checked for. */
export function watchedChanges(diff: Pick<DiffResult, 'resources'>): WatchedChange[] {
  return diff.resources.flatMap((resource) =>
    [...resource.changes, ...(resource.reported ?? [])].flatMap((change) =>
      change.next && isUndoneNext(change.next)
        ? [
            {
              key: resource.key,
              path: change.path,
              segments: change.segments,
              fingerprint: fingerprintChange(resource.key, change),
              ...(change.manager ? { manager: change.manager } : {}),
              ...(change.time ? { time: change.time } : {}),
              by: change.next.by,
            },
          ]
        : [],
    ),
  );
}

/** The latest write of a GitOps applier to the object after `after`, if any. */
function applierWrite(object: KubeObject, after: string | undefined, config: Config): string | undefined {
  const entries = Array.isArray(object.metadata?.managedFields) ? object.metadata.managedFields : [];
  const times = entries
    .filter((entry) => entry?.manager && entry.subresource !== 'status' && isGitOpsApplier(entry.manager, config))
    .map((entry) => entry.time ?? '')
    .filter((time) => time && (!after || time > after))
    .sort();
  return times.at(-1);
}

/**
 * The followed changes the snapshot shows undone: the object is still there and no longer holds the
 * person's value at that field. A deleted object was not undone; a value still there is still followed.
 */
export function undoneSince(
  watched: readonly WatchedChange[],
  live: readonly KubeObject[],
  capturedAt: string,
  config: Config,
): UndoneChange[] {
  const byId = new Map(live.map((object) => [keyId(keyOf(object)), object]));
  return watched.flatMap((change) => {
    const object = byId.get(keyId(change.key));
    if (!object) return [];
    const found = resolveSegments(object, change.segments);
    const now = fingerprintChange(change.key, {
      path: change.path,
      segments: [],
      op: 'replace',
      cause: 'human',
      live: found?.value,
    });
    if (found && now === change.fingerprint) return [];
    const write = applierWrite(object, change.time, config);
    return [{ ...change, at: write ?? capturedAt, exact: write !== undefined }];
  });
}
