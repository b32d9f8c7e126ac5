// The "<cluster> is not reporting" alert: decided in core (decideNotReporting: opened once when no
// snapshot arrived for longer than staleAfter, not rewritten while it stays open, closed with a
// comment when snapshots resume), executed here.
import type { ClusterConfig } from '../../core/config/index.js';
import { decideNotReporting } from '../../core/decide/index.js';
import type { StoredSnapshotMeta } from '../../store/types.js';
import type { WatchState } from './alert-state.js';
import { executeAlertActions, type AlertChange, type AlertWriter } from './execute-alerts.js';

/** Gathers the cluster's latest capture time and open issue, decides, executes, and records the issue left open. */
export async function checkNotReporting(
  writer: AlertWriter,
  cluster: ClusterConfig,
  latest: StoredSnapshotMeta | undefined,
  state: WatchState,
  now: Date,
): Promise<AlertChange[]> {
  const open = state.notReporting?.[cluster.name];
  const decision = decideNotReporting({
    cluster,
    ...(latest ? { latestCapturedAt: latest.capturedAt } : {}),
    configuredAt: state.configuredAt?.[cluster.name] ?? now.toISOString(),
    ...(open ? { open } : {}),
    now: now.toISOString(),
  });
  const { changes, opened } = await executeAlertActions(writer, decision.actions);
  const issue = Object.values(opened)[0] ?? decision.next?.issue;
  const { [cluster.name]: _before, ...others } = state.notReporting ?? {};
  state.notReporting =
    decision.next && issue !== undefined
      ? { ...others, [cluster.name]: { issue, since: decision.next.since } }
      : others;
  return changes;
}
