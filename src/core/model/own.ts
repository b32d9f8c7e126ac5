// Keys from manifests and snapshots are data. A ConfigMap may hold a key named `__proto__` or
// `constructor`; read with `object[key]` when absent, such a key answers with what Object.prototype
// inherits, and assigned with `object[key] = value`, `__proto__` replaces an object's prototype. The
// core reads and writes keys of that kind only through these two functions.

/** Keys that name members of Object.prototype rather than data when read or set naively. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The object's own value at `key`; never an inherited member. */
export function ownValue(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** Sets `key` as an own data property, `__proto__` included, without touching any prototype. */
export function setOwn(object: object, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else (object as Record<string, unknown>)[key] = value;
}
