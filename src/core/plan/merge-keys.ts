// How list items are matched between desired and live, as strategic merge patch does. A list
// whose items carry none of these keys is atomic: compared as a whole.
import { isPlainObject, type PathSegment } from '../model/index.js';

const KEYS_BY_FIELD: Record<string, string[][]> = {
  containers: [['name']],
  initContainers: [['name']],
  ephemeralContainers: [['name']],
  env: [['name']],
  volumes: [['name']],
  imagePullSecrets: [['name']],
  volumeMounts: [['mountPath']],
  volumeDevices: [['devicePath']],
  hostAliases: [['ip']],
  // Container ports and Service ports are keyed with their protocol (TCP when omitted).
  ports: [['containerPort', 'protocol'], ['port', 'protocol']],
  volumeClaimTemplates: [['metadata.name']],
};

function read(item: Record<string, unknown>, field: string): unknown {
  if (field === 'metadata.name') return isPlainObject(item.metadata) ? item.metadata.name : undefined;
  if (field === 'protocol') return item.protocol ?? 'TCP';
  return item[field];
}

/** The merge key of an item in list `field`, or undefined when the list is atomic. */
export function mergeKeyOf(field: string, item: unknown): PathSegment | undefined {
  if (!isPlainObject(item)) return undefined;
  for (const fields of KEYS_BY_FIELD[field] ?? []) {
    if (read(item, fields[0]) === undefined) continue;
    const key: Record<string, string | number> = {};
    for (const name of fields) key[name === 'metadata.name' ? 'name' : name] = read(item, name) as string | number;
    return { key };
  }
  return undefined;
}

export function sameKey(a: PathSegment | undefined, b: PathSegment | undefined): boolean {
  if (!a || !b || typeof a === 'string' || typeof b === 'string' || !('key' in a) || !('key' in b)) return false;
  const names = Object.keys(a.key);
  return names.length === Object.keys(b.key).length && names.every((n) => String(a.key[n]) === String(b.key[n]));
}
