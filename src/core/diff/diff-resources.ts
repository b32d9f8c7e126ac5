// The whole comparison: desired and live paired by ResourceKey (one pass, no quadratic pairing),
// each pair diffed, every change classified and matched against ignore rules, and the summary counted.
import type { DesiredObject, DiffResult, FieldChange, KubeObject, ResourceDiff, ResourceKey } from '../model/index.js';
import type { Config } from '../config/index.js';
import { keyId, keyOf } from '../model/index.js';
import { assessHealth } from '../health/index.js';
import { compileIgnoreRules, ignoreRuleFor, type IgnoreMatcher } from '../classify/ignore.js';
import { summarize } from '../classify/summary.js';
import { diffObject } from './diff-object.js';
import { coverageOf, creatorOf, FULL_SCOPE, type SnapshotScope } from '../k8s/index.js';
import { isControllerMade } from './extra.js';

export interface DiffResourcesOptions {
  config: Config;
  /** The cluster's configured namespaces; undefined or empty = every namespace live holds. */
  namespaces?: readonly string[];
  /** What the snapshot listed (its scope). Default: everything. */
  scope?: SnapshotScope;
}

export function diffResources(desired: DesiredObject[], live: KubeObject[], options: DiffResourcesOptions): DiffResult {
  const { config } = options;
  const coverage = coverageOf(options.scope ?? FULL_SCOPE, options.namespaces);
  // Under a namespace scope, only objects in those namespaces can be hand-made extras.
  const extraInScope = (key: ResourceKey): boolean =>
    !coverage.namespaces || coverage.namespaces.includes(key.namespace);
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
      if (!coverage.proves(want.key)) continue;
      resources.push({ key: want.key, status: 'missing', changes: [], ignored: [], conflicts: [], desired: want });
      continue;
    }
    resources.push(compareOne(want, have, config, matchers));
  }

  for (const [id, have] of liveById) {
    if (desiredIds.has(id)) continue;
    const key = keyOf(have);
    if (!extraInScope(key)) continue;
    const createdBy = creatorOf(have, config);
    if (isControllerMade(have, createdBy)) continue;
    resources.push({
      key, status: 'extra', changes: [], ignored: [], conflicts: [], live: have, health: assessHealth(have),
      ...(createdBy ? { createdBy } : {}),
    });
  }

  // Ids computed once: a comparator that builds them would do it n log n times.
  const ids = new Map(resources.map((r) => [r, keyId(r.key)]));
  resources.sort((a, b) => (ids.get(a)! < ids.get(b)! ? -1 : ids.get(a)! > ids.get(b)! ? 1 : 0));
  return { resources, summary: summarize(resources), unlisted: coverage.unlisted };
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
