// The "<cluster> is not reporting" alert as data: opened (or reopened) once when no snapshot arrived
// for longer than staleAfter, closed with a comment when snapshots resume. It is not rewritten while
// it stays open, so a growing age does not edit it every minute.
import { parseDuration } from '../config/index.js';
import { formatAge } from '../plan/index.js';
import type { StaleAlertView } from '../report/index.js';
import type { AlertAction } from './alert-issues.js';

export function notReportingKey(cluster: string): string {
  return `alert/${cluster}/not-reporting`;
}

/** The open "not reporting" issue of a cluster, and since when. */
export interface NotReportingRecord {
  issue: number;
  since: string;
}

export interface NotReportingInput {
  cluster: { name: string; staleAfter: string };
  /** When the latest snapshot was taken; undefined when none ever arrived. */
  latestCapturedAt?: string;
  /** When the watch first saw the cluster configured (the age of a cluster that never reported). */
  configuredAt: string;
  open?: NotReportingRecord;
  now: string;
}

/** Whether the cluster's snapshots are older than staleAfter (or never came, counted from when it was configured). */
export function isStale(input: Omit<NotReportingInput, 'open'>): boolean {
  const staleAfter = parseDuration(input.cluster.staleAfter) ?? 1800;
  const since = Date.parse(input.latestCapturedAt ?? input.configuredAt);
  return Number.isFinite(since) && Date.parse(input.now) - since > staleAfter * 1000;
}

/**
 * The alert's action (none while it stays as it is) and what to remember: `since` alone when an
 * issue is about to be opened (the executor gives its number), undefined when none is open.
 */
export function decideNotReporting(input: NotReportingInput): {
  actions: AlertAction[];
  next: { since: string; issue?: number } | undefined;
} {
  const { cluster, open, now } = input;
  if (isStale(input)) {
    if (open) return { actions: [], next: open };
    const view: StaleAlertView = {
      cluster: cluster.name,
      now,
      staleAfter: cluster.staleAfter,
      ...(input.latestCapturedAt ? { lastCapturedAt: input.latestCapturedAt } : { configuredAt: input.configuredAt }),
    };
    const key = notReportingKey(cluster.name);
    const why = `no snapshot for longer than staleAfter (${cluster.staleAfter})`;
    const action: AlertAction = {
      kind: 'alert.open',
      key,
      id: key,
      resource: cluster.name,
      why,
      document: 'renderStaleAlert',
      view,
    };
    return { actions: [action], next: { since: now } };
  }
  if (!open) return { actions: [], next: undefined };
  const latest = input.latestCapturedAt;
  const age = latest ? formatAge((Date.parse(now) - Date.parse(latest)) / 1000) : 'an unknown time';
  const comment = `Snapshots of \`${cluster.name}\` resumed: the latest was taken ${latest ?? ''} (${age} ago). Closing.`;
  const close: AlertAction = {
    kind: 'alert.close',
    issue: open.issue,
    resource: cluster.name,
    comment,
    why: 'snapshots resumed',
  };
  return { actions: [close], next: undefined };
}
