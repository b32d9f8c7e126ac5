// The Ready / Reconciling / Stalled condition convention (kstatus) that Flux and many operators
// follow. Used for Flux objects and for kinds without a rule of their own.
import type { Health, KubeObject } from '../model/index.js';
import { describeCondition, findCondition, specNotObserved, statusConditions } from './read.js';

/** Health from kstatus conditions, or undefined when the object carries none of them. */
export function readinessConditionsHealth(obj: KubeObject): Health | undefined {
  const conditions = statusConditions(obj);
  const ready = findCondition(conditions, 'Ready');
  const stalled = findCondition(conditions, 'Stalled');
  const reconciling = findCondition(conditions, 'Reconciling');
  if (!ready && !stalled && !reconciling) return undefined;
  if (stalled?.status === 'True') return { status: 'Degraded', message: describeCondition(stalled) };
  if (specNotObserved(obj))
    return { status: 'Progressing', message: 'Waiting for the controller to observe the latest generation' };
  if (reconciling?.status === 'True') return { status: 'Progressing', message: describeCondition(reconciling) };
  if (!ready) return { status: 'Progressing', message: 'Waiting for the Ready condition' };
  if (ready.status === 'True') return { status: 'Healthy', message: describeCondition(ready) };
  if (ready.status === 'False') return { status: 'Degraded', message: describeCondition(ready) };
  return { status: 'Progressing', message: describeCondition(ready) };
}
