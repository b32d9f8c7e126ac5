// What a partial snapshot could not see. A scope error names a resource like `apps/v1/statefulsets`
// or `persistentvolumeclaims`; a type it names proves nothing about presence or absence.
import type { ResourceKey, ScopeError } from '../model/index.js';

/** The lowercase plural the API uses for a kind (Ingress → ingresses, Policy → policies). */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('s') || lower.endsWith('x') || lower.endsWith('ch') || lower.endsWith('sh')) return lower + 'es';
  if (lower.endsWith('y') && !/[aeiou]y$/.test(lower)) return lower.slice(0, -1) + 'ies';
  return lower + 's';
}

interface Unlisted {
  group?: string;
  plural: string;
}

function parseResource(resource: string): Unlisted {
  const parts = resource.split('/');
  const plural = parts[parts.length - 1].split('.')[0].toLowerCase();
  // `apps/v1/statefulsets` names a group; `v1/pods` and `pods` are core; `statefulsets.apps` too.
  if (parts.length >= 3) return { group: parts[0], plural };
  const dotted = resource.split('.');
  if (parts.length === 1 && dotted.length > 1) return { group: dotted.slice(1).join('.'), plural };
  if (parts.length === 2) return { group: '', plural };
  return { plural };
}

export function unlistedMatcher(errors: ScopeError[]): (key: Pick<ResourceKey, 'group' | 'kind'>) => boolean {
  const unlisted = errors.map((e) => parseResource(e.resource));
  return (key) => unlisted.some((u) => u.plural === pluralOf(key.kind) && (u.group === undefined || u.group === key.group));
}
