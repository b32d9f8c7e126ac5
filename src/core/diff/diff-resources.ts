// The whole comparison: desired and live paired by ResourceKey (one pass, no quadratic pairing),
// each pair diffed, every change classified and matched against ignore rules, and the summary counted.
import type { DesiredObject, DiffResult, FieldChange, KubeObject, ResourceDiff, ResourceKey } from '../model/index.js';
import type { Config } from '../config/index.js';
import { keyId, keyOf } from '../model/index.js';
import { assessHealth } from '../health/index.js';
import { compileIgnoreRules, ignoreRuleFor, type IgnoreMatcher } from '../classify/ignore.js';
import { summarize } from '../classify/summary.js';
import { diffObject } from './diff-object.js';
import { createdByOf, isControllerMade } from './extra.js';
import { unlistedMatcher, type UnlistedType } from './unlisted.js';

export interface DiffResourcesOptions {
  config: Config;
  /** Namespaces in scope; undefined or empty = every namespace live holds (an empty scope would show nothing). */
  namespaces?: string[];
  /** The snapshot's scope.complete. Default: true. */
  complete?: boolean;
  /** Types the snapshot could not list (scope.errors). */
  unlisted?: UnlistedType[];
}

export function diffResources(desired: DesiredObject[], live: KubeObject[], options: DiffResourcesOptions): DiffResult {
  const { config } = options;
  const scope = options.namespaces?.length ? new Set(options.namespaces) : undefined;
  const inScope = (key: ResourceKey): boolean => !scope || scope.has(key.namespace);
  const unlisted = unlistedMatcher(options.complete ?? true, options.unlisted ?? []);
  const matchers = compileIgnoreRules(config.drift.ignore);
  const liveById = new Map<string, KubeObject>();
  for (const obj of live) liveById.set(keyId(keyOf(obj)), obj);
  const desiredIds = new Set<string>();
  const resources: ResourceDiff[] = [];

  for (const want of desired) {
    const id = keyId(want.key);
    desiredIds.add(id);
    const have = liveById.get(id);
    if (!have) {
      // A partial snapshot proves nothing about what it could not see.
      if (unlisted.covers(want.key) || (scope && want.key.namespace && !inScope(want.key))) continue;
      resources.push({ key: want.key, status: 'missing', changes: [], ignored: [], conflicts: [], desired: want });
      continue;
    }
    resources.push(compareOne(want, have, config, matchers));
  }

  for (const [id, have] of liveById) {
    if (desiredIds.has(id)) continue;
    const key = keyOf(have);
    if (scope && !inScope(key)) continue;
    const createdBy = createdByOf(have, config);
    if (isControllerMade(have, createdBy)) continue;
    resources.push({
      key, status: 'extra', changes: [], ignored: [], conflicts: [], live: have, health: assessHealth(have),
      ...(createdBy ? { createdBy } : {}),
    });
  }

  // Ids computed once: a comparator that builds them would do it n log n times.
  const ids = new Map(resources.map((r) => [r, keyId(r.key)]));
  resources.sort((a, b) => (ids.get(a)! < ids.get(b)! ? -1 : ids.get(a)! > ids.get(b)! ? 1 : 0));
  return { resources, summary: summarize(resources), unlisted: unlisted.described };
}

function compareOne(want: DesiredObject, have: KubeObject, config: Config, matchers: readonly IgnoreMatcher[]): ResourceDiff {
  const { changes, conflicts } = diffObject(want.object, have, { config });
  const counted: FieldChange[] = [];
  const ignored: FieldChange[] = [];
  for (const change of changes) {
    const rule = ignoreRuleFor(matchers, want.key, change);
    if (rule) ignored.push({ ...change, ignored: { reason: rule.reason } });
    else counted.push(change);
  }
  // An ignore rule is one of the two fixes a conflict names: a matched conflict is settled.
  const open = conflicts.filter((c) => !matchers.some((m) => m.matches(want.key, c.path, [c.manager])));
  return {
    key: want.key,
    status: counted.length ? 'modified' : 'in-sync',
    changes: counted,
    ignored,
    conflicts: open,
    desired: want,
    live: have,
    health: assessHealth(have),
  };
}
