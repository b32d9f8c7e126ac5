// What the watch job remembers per repository between runs (stored under cluster `~watch`, a name
// no configured cluster can have): open alert issues, since when a condition holds, which snapshot
// each cluster's open plans were last refreshed for, and the dashboard's last fingerprint.
import type { Store } from '../../store/types.js';
import type { WatchState } from '../../store/state/index.js';

// The shape lives with its schema in src/store/state/schemas.ts: add a field there.
export type { WatchState } from '../../store/state/index.js';

export async function readWatchState(store: Pick<Store, 'getState'>, repository: string): Promise<WatchState> {
  return (await store.getState({ kind: 'watch', repository })) ?? {};
}

export async function writeWatchState(
  store: Pick<Store, 'setState'>,
  repository: string,
  state: WatchState,
): Promise<void> {
  await store.setState({ kind: 'watch', repository }, state);
}
