// The "<source> is still suspended" alert: decided in core (decideSuspended: one issue per suspension
// once it has lasted longer than emergency.resumeWithin, with its emergency PR or, without drift and
// PR, as a forgotten suspension naming who suspended it; closed when the source reconciles again),
// executed here.
import type { Config } from '../../core/config/index.js';
import { decideSuspended } from '../../core/decide/index.js';
import type { SuspensionState } from '../reconcile/state.js';
import type { WatchState } from './alert-state.js';
import { executeAlerts, type AlertChange, type AlertWriter } from './execute-alerts.js';

export { suspendedKey } from '../../core/decide/index.js';

export type SuspendedAlertChange = AlertChange;

export async function checkSuspended(
  writer: AlertWriter,
  cluster: string,
  suspensions: readonly SuspensionState[],
  emergency: Config['emergency'],
  state: WatchState,
  now: Date,
): Promise<SuspendedAlertChange[]> {
  const open = state.suspended?.[cluster] ?? {};
  const decision = decideSuspended({
    cluster,
    suspensions,
    resumeWithin: emergency.resumeWithin,
    open,
    now: now.toISOString(),
  });
  const { changes, open: next } = await executeAlerts(writer, decision);
  const { [cluster]: _before, ...others } = state.suspended ?? {};
  state.suspended = Object.keys(next).length > 0 ? { ...others, [cluster]: next } : others;
  return changes;
}
