// Per-source results, as the plan comment, the dashboard and the CLI show them
// ("flux-system/apps: 1 object, 4 live changes", "flux-system/infra: in sync"): data made by
// core/sources, rendered by core/report.
import { driftAmount } from './show.js';

export interface SourceReport {
  /** `flux-system/apps`; the cluster's name for a cluster applied by kubectl. */
  name: string;
  controller: 'flux' | 'argocd' | 'kubectl';
  /** The path it renders, when it renders one of this repository. */
  path?: string;
  /**
   * `rendered`: its render is compared; `not-rendered`: its render failed or is not supported (`reason`
   * says why): nothing of it is compared, its live objects are neither in sync, extra nor pruned;
   * `out-of-scope`: it applies another repository, and is listed, not checked.
   */
  scope: 'rendered' | 'not-rendered' | 'out-of-scope';
  /** Why a `not-rendered` source was not rendered. */
  reason?: string;
  /** Flux `spec.suspend`, Argo CD automated sync off (from the snapshot). */
  suspended: boolean;
  appliedRevision?: string;
  /**
   * Resources of this source that drift and their live changes (drift reports), or that merging
   * changes (plans).
   */
  counts: { drift?: number; changes?: number; create?: number; update?: number; prune?: number };
}

/** One line per source: `flux-system/apps: 1 object, 4 live changes`, `argocd/guestbook: 1 to update`. */
export function sourceReportLine(report: SourceReport): string {
  const suspended = report.suspended ? ' (suspended)' : '';
  if (report.scope === 'out-of-scope') return `${report.name}: another repository, not checked${suspended}`;
  if (report.scope === 'not-rendered') return `${report.name}: not rendered: ${report.reason ?? 'unknown'}${suspended}`;
  const { drift, changes, create, update, prune } = report.counts;
  const parts: string[] = [];
  if (drift !== undefined) parts.push(drift === 0 ? 'in sync' : driftAmount(drift, changes ?? drift));
  if (create) parts.push(`${create} to create`);
  if (update) parts.push(`${update} to update`);
  if (prune) parts.push(`${prune} to prune`);
  if (parts.length === 0) parts.push('no changes');
  return `${report.name}: ${parts.join(', ')}${suspended}`;
}
