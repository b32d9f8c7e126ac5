// The "emergency fix was undone" alert: decided in core (decideFixesUndone: opened once per emergency
// PR whose record calls its fix undone, resumed before the merge or moved away after "verified";
// closed once the record no longer does), executed here.
import { decideFixesUndone } from '../../core/decide/index.js';
import type { EmergencyRecord } from '../reconcile/state.js';
import type { WatchState } from './alert-state.js';
import { executeAlerts, type AlertChange, type AlertWriter } from './execute-alerts.js';

export { fixUndoneKey } from '../../core/decide/index.js';

export async function checkFixesUndone(
  writer: AlertWriter,
  cluster: string,
  records: Readonly<Record<string, EmergencyRecord>>,
  state: WatchState,
): Promise<AlertChange[]> {
  const decision = decideFixesUndone({ cluster, records, open: state.undone?.[cluster] ?? {} });
  const { changes, open } = await executeAlerts(writer, decision);
  if (changes.length > 0) {
    const { [cluster]: _before, ...others } = state.undone ?? {};
    state.undone = Object.keys(open).length > 0 ? { ...others, [cluster]: open } : others;
  }
  return changes;
}
