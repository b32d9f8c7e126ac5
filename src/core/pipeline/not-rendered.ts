// Parts of a cluster's tree the renderer could not render (a Helm chart, a remote base, a plugin):
// the live objects they may account for are neither drift nor prunes. An object may come from one
// when it is cluster-scoped, when a part has no known namespace, when it lives in a part's namespace, or
// when the source the part belongs to claims it (its inventory or its stamps): then nothing is claimed
// about it — neither prune, nor missing, nor extra.
import { summarize } from '../classify/index.js';
import { inventoryClaims } from '../ownership/index.js';
import { keepPrunes } from '../plan/index.js';
import { readArgoSettings, sourceRefText, stampedSource, type Source } from '../sources/index.js';
import type { DiffResult, KubeObject, NotRenderedSource, Plan, PlanWarning, ResourceKey } from '../model/index.js';

/** The source (`Kind/ns/name`) whose inventory or stamps claim a live object, when known. */
export type ClaimOf = (key: ResourceKey, live: KubeObject | undefined) => string | undefined;

/** Claims from the sources' inventories (Flux `status.inventory`, Argo CD `status.resources`), then stamps. */
export function claimsOf(sources: readonly Source[], live: readonly KubeObject[]): ClaimOf {
  const inventory = inventoryClaims(sources);
  const tracking = readArgoSettings(live);
  return (key, object) => {
    const claimed = object ? inventory?.(key, object) : undefined;
    const stamped = object ? stampedSource(object, tracking) : undefined;
    return claimed ?? (stamped ? sourceRefText(stamped) : undefined);
  };
}

export function mayComeFromNotRendered(
  key: ResourceKey,
  sources: readonly NotRenderedSource[],
  claimedBy?: string,
): boolean {
  if (sources.length === 0) return false;
  return (
    (claimedBy !== undefined && sources.some((source) => source.source === claimedBy)) ||
    key.namespace === '' ||
    sources.some((source) => source.namespace === undefined || source.namespace === key.namespace)
  );
}

/** Where a part not rendered is: `Kustomization/flux-system/apps: apps/kustomization.yaml:3 (resources)`. */
export function notRenderedPlace(source: NotRenderedSource): string {
  const where = source.line ? `${source.file}:${source.line}` : source.file;
  const place = [where, source.field ? `(${source.field})` : ''].filter(Boolean).join(' ');
  if (!source.source) return place;
  return place ? `${source.source}: ${place}` : source.source;
}

export function describeNotRendered(source: NotRenderedSource): string {
  return `${notRenderedPlace(source)}: not rendered: ${source.reason}`;
}

/** The diff without the extra objects what was not rendered may have made; they are listed instead. */
export function setAsideNotRendered(
  diff: DiffResult,
  sources: readonly NotRenderedSource[] | undefined,
  claimOf?: ClaimOf,
): DiffResult {
  if (!sources || sources.length === 0) return diff;
  const live: ResourceKey[] = [];
  const resources = diff.resources.filter((resource) => {
    const claim = claimOf?.(resource.key, resource.live);
    if (resource.status !== 'extra' || !mayComeFromNotRendered(resource.key, sources, claim)) return true;
    live.push(resource.key);
    return false;
  });
  return { ...diff, resources, summary: summarize(resources), notRendered: { sources: [...sources], live } };
}

/** A plan that prunes nothing what was not rendered may have made, and says why. */
export function keepNotRendered(
  plan: Plan,
  sources: readonly NotRenderedSource[] | undefined,
  claimOf?: ClaimOf,
): Plan {
  if (!sources || sources.length === 0) return plan;
  const spared = plan.prune.filter((entry) =>
    mayComeFromNotRendered(entry.id, sources, claimOf?.(entry.id, entry.live)),
  );
  const reason = `may be made by a part of the source driftback does not render (${sources.map((s) => (s.line ? `${s.file}:${s.line}` : s.file)).join(', ')})`;
  const warnings: PlanWarning[] = sources.map((source) => ({
    code: 'not-rendered',
    message: describeNotRendered(source),
    file: source.file,
    ...(source.line ? { line: source.line } : {}),
  }));
  const kept = keepPrunes(
    plan,
    spared.map((entry) => ({ id: entry.id, reason })),
  );
  return { ...kept, warnings: [...warnings, ...kept.warnings] };
}
