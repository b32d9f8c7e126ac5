// Alert issues as data: from what a cluster shows (its suspensions, its emergency records) and the
// alert issues the watch opened before, the issues to open (with the document that says why) and to
// close (with the comment that says why), in order, and the state to remember. The App executes them
// and writes each opened issue's number into that state (`withIssue`).
import { parseDuration } from '../config/index.js';
import { showTime } from '../model/index.js';
import type { EmergencyRecord, Suspension } from '../emergency/index.js';
import type {
  FixUndoneView,
  NotReconcilingAlertView,
  StaleAlertView,
  SuspendedAlertView,
  SuspensionView,
} from '../report/index.js';

/** An alert issue to open (or reopen: it is found again by its key) or to close. */
export type AlertAction =
  | ({ kind: 'alert.open'; key: string; id: string; resource: string; why: string } & AlertDocument)
  | { kind: 'alert.close'; issue: number; resource: string; comment: string; why: string };

/** The document an opened alert renders, by the core function that renders it. */
export type AlertDocument =
  | { document: 'renderSuspendedAlert'; view: SuspendedAlertView }
  | { document: 'renderFixUndoneAlert'; view: FixUndoneView }
  | { document: 'renderStaleAlert'; view: StaleAlertView }
  | { document: 'renderNotReconcilingAlert'; view: NotReconcilingAlertView };

/** Open alerts by id (a suspension, an emergency PR): the issue each is tracked in. */
export type OpenAlerts = Record<string, { issue: number }>;

export interface AlertDecision {
  actions: AlertAction[];
  /** What to remember: the alerts left open; an opened one gets its issue number from `withIssue`. */
  next: OpenAlerts;
}

/** The state with the issue an `alert.open` action opened. */
export function withIssue(next: OpenAlerts, id: string, issue: number): OpenAlerts {
  return { ...next, [id]: { issue } };
}

export function suspendedKey(cluster: string, source: string): string {
  return `alert/${cluster}/suspended/${source}`;
}

export function fixUndoneKey(cluster: string, source: string): string {
  return `alert/${cluster}/emergency-undone/${source}`;
}

/** A suspension as the last reconcile saw it, and the emergency PR followed for it. */
export interface SuspensionSeen {
  suspension: Suspension;
  since: string;
  sinceSeen?: boolean;
  pullRequest?: number;
  merged?: boolean;
}

function shown(state: SuspensionSeen): SuspensionView {
  return { suspension: state.suspension, since: state.since, ...(state.sinceSeen ? { sinceSeen: true } : {}) };
}

/**
 * "<source> is still suspended": one issue per suspension once it lasted longer than
 * emergency.resumeWithin, opened once and not rewritten while it stays open, closed with a comment
 * when the source reconciles again.
 */
export function decideSuspended(input: {
  cluster: string;
  suspensions: readonly SuspensionSeen[];
  resumeWithin: string;
  open: Readonly<OpenAlerts>;
  now: string;
}): AlertDecision {
  const { cluster, open, now } = input;
  const limit = parseDuration(input.resumeWithin) ?? 8 * 3600;
  const next: OpenAlerts = {};
  const actions: AlertAction[] = [];
  for (const suspended of input.suspensions) {
    const source = suspended.suspension.id;
    if (open[source]) next[source] = open[source];
    else if (Date.parse(now) - Date.parse(suspended.since) > limit * 1000) {
      const view: SuspendedAlertView = {
        cluster,
        now,
        resumeWithin: input.resumeWithin,
        view: shown(suspended),
        ...(suspended.pullRequest !== undefined ? { pullRequest: suspended.pullRequest } : {}),
        ...(suspended.merged ? { merged: true } : {}),
      };
      const why = `suspended since ${showTime(suspended.since)}, longer than emergency.resumeWithin (${input.resumeWithin})`;
      const document = { document: 'renderSuspendedAlert', view } as const;
      actions.push(openAction(suspendedKey(cluster, source), source, `${cluster}/${source}`, why, document));
    }
  }
  for (const [source, alert] of Object.entries(open)) {
    if (next[source]) continue;
    const comment = `\`${source}\` in \`${cluster}\` reconciles again: it was resumed. Closing.`;
    actions.push(closeAction(alert.issue, `${cluster}/${source}`, comment, 'the source reconciles again'));
  }
  return { actions, next };
}

function openAction(key: string, id: string, resource: string, why: string, document: AlertDocument): AlertAction {
  return { kind: 'alert.open', key, id, resource, why, ...document };
}

function closeAction(issue: number, resource: string, comment: string, why: string): AlertAction {
  return { kind: 'alert.close', issue, resource, comment, why };
}

/** The record calls its fix undone: before "verified" (outcome), or moved away after it. */
function undone(record: EmergencyRecord | undefined): boolean {
  return record !== undefined && (record.outcome === 'undone' || record.moved !== undefined);
}

/** Why an open alert closes: Git changed the fields, or the fix is back (or no longer followed). */
function closingComment(cluster: string, source: string, pullRequest: string, record: EmergencyRecord): string {
  const where = `The fix of #${pullRequest} under \`${source}\` in \`${cluster}\``;
  const released = record.released ?? [];
  if (record.changes.length === 0 && released.length > 0)
    return `Git now declares another value for ${released.map((field) => `\`${field}\``).join(', ')}: ${where.replace('The fix', 'the fix')} is no longer followed there. Closing.`;
  return `${where} is back in the cluster. Closing.`;
}

/** An open alert whose record no longer calls the fix undone (or is another PR's now): its close. */
function closeUndone(cluster: string, id: string, issue: number, record: EmergencyRecord | undefined): AlertAction {
  const split = id.lastIndexOf('#');
  const source = id.slice(0, split);
  const number = id.slice(split + 1);
  const comment =
    record !== undefined && `${source}#${record.pullRequest}` === id
      ? closingComment(cluster, source, number, record)
      : `The fix of #${number} under \`${source}\` in \`${cluster}\` is no longer followed${record ? `: #${record.pullRequest} is the emergency pull request of this source now` : ''}. Closing.`;
  return closeAction(
    issue,
    `${cluster}/${source}`,
    comment,
    'the fix is back, Git changed the field, or it is no longer followed',
  );
}

/**
 * "The emergency fix was undone": opened once per emergency PR whose record calls its fix undone
 * (before "verified", or moved away after it), keyed `<source>#<pull request>`; closed with a comment
 * once the record no longer does. Closes come first, then opens.
 */
export function decideFixesUndone(input: {
  cluster: string;
  records: Readonly<Record<string, EmergencyRecord>>;
  open: Readonly<OpenAlerts>;
}): AlertDecision {
  const { cluster, records } = input;
  const next: OpenAlerts = { ...input.open };
  const actions: AlertAction[] = [];
  for (const [id, alert] of Object.entries(input.open)) {
    const source = id.slice(0, id.lastIndexOf('#'));
    const record = records[source];
    if (record !== undefined && `${source}#${record.pullRequest}` === id && undone(record)) continue;
    actions.push(closeUndone(cluster, id, alert.issue, record));
    delete next[id];
  }
  for (const [source, record] of Object.entries(records)) {
    const id = `${source}#${record.pullRequest}`;
    if (!undone(record) || next[id]) continue;
    const view: FixUndoneView = {
      cluster,
      source,
      changes: record.changes,
      resumedAt: record.resumedAt ?? '',
      pullRequest: record.pullRequest,
      merged: record.mergeSha !== undefined,
      ...(record.moved && record.verifiedAt ? { verifiedAt: record.verifiedAt, moved: record.moved.fields } : {}),
    };
    const why = record.moved ? 'a value moved away from the merged fix after "verified"' : 'the fix was undone';
    const document = { document: 'renderFixUndoneAlert', view } as const;
    actions.push(openAction(fixUndoneKey(cluster, source), id, `${cluster}/${source}`, why, document));
  }
  return { actions, next };
}
