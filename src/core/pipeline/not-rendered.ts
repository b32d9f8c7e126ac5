// Parts of a cluster's tree the renderer could not render (a Helm chart, a remote base, a plugin):
// the live objects they may account for are neither drift nor prunes. An object may come from one
// when it is cluster-scoped, when a part has no known namespace, or when it lives in a part's namespace.
import { summarize } from '../classify/index.js';
import type { DiffResult, NotRenderedSource, Plan, PlanWarning, ResourceKey } from '../model/index.js';

export function mayComeFromNotRendered(key: ResourceKey, sources: readonly NotRenderedSource[]): boolean {
  if (sources.length === 0) return false;
  return (
    key.namespace === '' ||
    sources.some((source) => source.namespace === undefined || source.namespace === key.namespace)
  );
}

export function describeNotRendered(source: NotRenderedSource): string {
  const where = source.line ? `${source.file}:${source.line}` : source.file;
  return `${where}${source.field ? ` (${source.field})` : ''}: not rendered: ${source.reason}`;
}

/** The diff without the extra objects what was not rendered may have made; they are listed instead. */
export function setAsideNotRendered(diff: DiffResult, sources: readonly NotRenderedSource[] | undefined): DiffResult {
  if (!sources || sources.length === 0) return diff;
  const live: ResourceKey[] = [];
  const resources = diff.resources.filter((resource) => {
    if (resource.status !== 'extra' || !mayComeFromNotRendered(resource.key, sources)) return true;
    live.push(resource.key);
    return false;
  });
  return { ...diff, resources, summary: summarize(resources), notRendered: { sources: [...sources], live } };
}

/** A plan that prunes nothing what was not rendered may have made, and says why. */
export function keepNotRendered(plan: Plan, sources: readonly NotRenderedSource[] | undefined): Plan {
  if (!sources || sources.length === 0) return plan;
  const prune = plan.prune.filter((entry) => !mayComeFromNotRendered(entry.id, sources));
  const spared = plan.prune.filter((entry) => !prune.includes(entry));
  const reason = `may be made by a part of the source driftback does not render (${sources.map((s) => (s.line ? `${s.file}:${s.line}` : s.file)).join(', ')})`;
  const warnings: PlanWarning[] = sources.map((source) => ({
    code: 'not-rendered',
    message: describeNotRendered(source),
    file: source.file,
    ...(source.line ? { line: source.line } : {}),
  }));
  return {
    ...plan,
    prune,
    kept: [...plan.kept, ...spared.map((entry) => ({ id: entry.id, reason }))],
    warnings: [...warnings, ...plan.warnings],
  };
}
