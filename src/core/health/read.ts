// Typed reads of the loosely shaped status of a live object. Health rules read fields that may be
// absent, mistyped or null in real snapshots; these helpers never throw on such input.
import { isPlainObject, ownValue } from '../model/index.js';

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** The value at a dotted path of plain objects, or undefined. */
export function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isPlainObject(current)) return undefined;
    current = ownValue(current, key);
  }
  return current;
}

export function numberAt(value: unknown, ...path: string[]): number | undefined {
  const found = field(value, ...path);
  return typeof found === 'number' && Number.isFinite(found) ? found : undefined;
}

export function stringAt(value: unknown, ...path: string[]): string | undefined {
  const found = field(value, ...path);
  return typeof found === 'string' ? found : undefined;
}

export function listAt(value: unknown, ...path: string[]): unknown[] {
  const found = field(value, ...path);
  return Array.isArray(found) ? found : [];
}

/** Conditions in `status.conditions` (or another list), skipping entries without a type. */
export function conditionsOf(list: unknown[]): Condition[] {
  const conditions: Condition[] = [];
  for (const item of list) {
    if (!isPlainObject(item) || typeof item.type !== 'string') continue;
    conditions.push({
      type: item.type,
      status: typeof item.status === 'string' ? item.status : String(item.status ?? ''),
      reason: typeof item.reason === 'string' ? item.reason : undefined,
      message: typeof item.message === 'string' ? item.message : undefined,
      lastTransitionTime: typeof item.lastTransitionTime === 'string' ? item.lastTransitionTime : undefined,
    });
  }
  return conditions;
}

export function statusConditions(obj: unknown): Condition[] {
  return conditionsOf(listAt(obj, 'status', 'conditions'));
}

export function findCondition(conditions: Condition[], type: string): Condition | undefined {
  return conditions.find((condition) => condition.type === type);
}

/** `reason: message`, or whichever of them is set. */
export function describeCondition(condition: Condition): string | undefined {
  if (condition.reason && condition.message) return `${condition.reason}: ${condition.message}`;
  return condition.message ?? condition.reason;
}

/** True when the controller has not yet seen the latest spec (generation ahead of observedGeneration). */
export function specNotObserved(obj: unknown): boolean {
  const generation = numberAt(obj, 'metadata', 'generation');
  const observed = numberAt(obj, 'status', 'observedGeneration');
  return generation !== undefined && observed !== undefined && observed < generation;
}
