// Types a snapshot could not list (scope.errors, scope.complete: false): nothing is claimed missing
// for them. Errors name a resource like `apps/v1/statefulsets`; desired objects name a kind.
import type { ResourceKey } from '../model/index.js';

export interface UnlistedType {
  group?: string;
  kind?: string;
  /** `apps/v1/statefulsets`, `v1/secrets`, or a bare plural `secrets`. */
  resource: string;
}

/** The plural the API uses for a kind, for the common English endings. */
export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  if (/[^aeiou]y$/.test(lower)) return lower.slice(0, -1) + 'ies';
  if (/(s|x|z|ch|sh)$/.test(lower)) return lower + 'es';
  return lower + 's';
}

function parseResource(type: UnlistedType): { group?: string; plural: string } {
  const parts = type.resource.split('/');
  const plural = parts[parts.length - 1]!.split('.')[0]!.toLowerCase();
  if (type.group !== undefined) return { group: type.group, plural };
  if (parts.length === 3) return { group: parts[0], plural };
  if (parts.length === 2) return { group: parts[0]!.startsWith('v') && /^v\d/.test(parts[0]!) ? '' : parts[0], plural };
  return { plural };
}

export function unlistedMatcher(complete: boolean, types: readonly UnlistedType[]): { covers(key: ResourceKey): boolean; described: string[] } {
  const parsed = types.map((type) => ({ type, ...parseResource(type) }));
  const described = types.map((t) => t.resource);
  if (!complete && types.length === 0) described.push('(unknown: snapshot incomplete)');
  return {
    described,
    covers(key) {
      // Incomplete without saying what: every type may be the one that failed.
      if (!complete && types.length === 0) return true;
      return parsed.some((p) =>
        (p.group === undefined || p.group === key.group) &&
        (p.type.kind ? p.type.kind === key.kind : p.plural === pluralOf(key.kind)),
      );
    },
  };
}
