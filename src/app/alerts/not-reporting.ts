// The "<cluster> is not reporting" alert: opened (or reopened) once when no snapshot arrived for
// longer than staleAfter, closed with a comment when snapshots resume. It is not rewritten while it
// stays open, so a growing age does not edit it every minute.
import { parseDuration, type ClusterConfig } from '../../core/config/index.js';
import { formatAge } from '../../core/plan/index.js';
import { NO_OVERRIDES, type TemplateOverrides } from '../../core/report/index.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';
import {
  closeIssue,
  upsertIssueByMarker,
  type AppIdentity,
  type GitHubClient,
  type RepoRef,
} from '../../github/index.js';
import type { StoredSnapshotMeta } from '../../store/types.js';
import type { WatchState } from './alert-state.js';

export const ALERT_LABELS = ['driftback', 'driftback-alert'];

export function notReportingKey(cluster: string): string {
  return `alert/${cluster}/not-reporting`;
}

export type NotReportingOutcome = {
  type: 'opened' | 'reopened' | 'closed' | 'still-open' | 'reporting';
  issue?: number;
};

/** Whether the cluster's snapshots are older than staleAfter (or never came, counted from when it was configured). */
export function isStale(
  cluster: ClusterConfig,
  latest: StoredSnapshotMeta | undefined,
  configuredAt: string,
  now: Date,
): boolean {
  const staleAfter = parseDuration(cluster.staleAfter) ?? 1800;
  const since = Date.parse(latest?.capturedAt ?? configuredAt);
  return Number.isFinite(since) && now.getTime() - since > staleAfter * 1000;
}

/** `templates` is asked for only when an issue is written. */
export async function checkNotReporting(
  octokit: GitHubClient,
  repo: RepoRef,
  cluster: ClusterConfig,
  latest: StoredSnapshotMeta | undefined,
  state: WatchState,
  now: Date,
  author: AppIdentity,
  templates: () => Promise<TemplateOverrides> = async () => NO_OVERRIDES,
  documents: Documents = renderInPlace,
): Promise<NotReportingOutcome> {
  const configuredAt = state.configuredAt?.[cluster.name] ?? now.toISOString();
  const open = state.notReporting?.[cluster.name];
  if (isStale(cluster, latest, configuredAt, now)) {
    if (open) return { type: 'still-open', issue: open.issue };
    const view = {
      cluster: cluster.name,
      now: now.toISOString(),
      staleAfter: cluster.staleAfter,
      ...(latest ? { lastCapturedAt: latest.capturedAt } : { configuredAt }),
    };
    const rendered = await documents('renderStaleAlert', view, { templates: await templates() });
    const result = await upsertIssueByMarker(octokit, {
      ...repo,
      key: notReportingKey(cluster.name),
      title: rendered.title,
      body: rendered.body,
      labels: ALERT_LABELS,
      author,
    });
    state.notReporting = { ...state.notReporting, [cluster.name]: { issue: result.number, since: now.toISOString() } };
    return { type: result.type === 'reopened' ? 'reopened' : 'opened', issue: result.number };
  }
  if (!open) return { type: 'reporting' };
  const age = latest ? formatAge((now.getTime() - Date.parse(latest.capturedAt)) / 1000) : 'an unknown time';
  await closeIssue(octokit, {
    ...repo,
    number: open.issue,
    comment: `Snapshots of \`${cluster.name}\` resumed: the latest was taken ${latest?.capturedAt ?? ''} (${age} ago). Closing.`,
  });
  const { [cluster.name]: _closed, ...rest } = state.notReporting ?? {};
  state.notReporting = rest;
  return { type: 'closed', issue: open.issue };
}
