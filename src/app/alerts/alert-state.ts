// What the watch job remembers per repository between runs (stored under cluster `~watch`, a name
// no configured cluster can have): open alert issues, since when a condition holds, which snapshot
// each cluster's open plans were last refreshed for, and the dashboard's last fingerprint.
import type { Store } from '../../store/types.js';

export interface WatchState {
  /** cluster → first time it was seen configured (the age of a cluster that never reported). */
  configuredAt?: Record<string, string>;
  /** cluster → the open "not reporting" issue. */
  notReporting?: Record<string, { issue: number; since: string }>;
  /** `<cluster>/<namespace>/<name>` → since when the reconciler is not reconciling, and its issue once opened. */
  notReconciling?: Record<string, { since: string; reason: string; issue?: number }>;
  /** `<cluster>/<source>` → the open "still suspended" issue. */
  suspended?: Record<string, { issue: number }>;
  /** cluster → the snapshot the open pull requests' plans were refreshed for. */
  plannedSnapshots?: Record<string, string>;
  dashboard?: string;
}

const WATCH_STATE = '~watch';

export async function readWatchState(store: Pick<Store, 'getState'>, repository: string): Promise<WatchState> {
  return (await store.getState<WatchState>(repository.toLowerCase(), WATCH_STATE)) ?? {};
}

export async function writeWatchState(store: Pick<Store, 'setState'>, repository: string, state: WatchState): Promise<void> {
  await store.setState(repository.toLowerCase(), WATCH_STATE, state);
}
