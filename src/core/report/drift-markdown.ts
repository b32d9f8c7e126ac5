// `driftback diff --format markdown`: the drift report as a Markdown table, rows read as the drift
// pull request reads them (field paths by key, compact values, who and when).
import { neverCodified } from '../codify/index.js';
import type { SkippedObject } from '../k8s/object-names.js';
import { displayKey, showTime, type DiffResult, type SuspensionNotice } from '../model/index.js';
import { GITHUB_BODY_LIMIT } from './budget.js';
import { changeRow, reportedRow, whoWhen } from './change-rows.js';
import { renderDocument, type TemplateOverrides } from './template-engine.js';
import { riskyRows } from './risk-rows.js';
import { riskyDrift } from '../risk/index.js';
import type { DriftReportModel, DriftReportRowModel, ValueDiffModel } from './models/index.js';

export function driftReportHeadline(summary: DiffResult['summary']): string {
  const { modified, missing, extra, inSync, ignored, conflicts } = summary;
  const line = `${modified} modified, ${missing} missing, ${extra} extra, ${inSync} in sync`;
  const more = [
    ...(ignored ? [`${ignored} ignored`] : []),
    ...(conflicts ? [`${conflicts} conflict${conflicts === 1 ? '' : 's'}`] : []),
  ];
  return more.length ? `${line}; ${more.join(', ')}` : line;
}

/** What the report shows beside the drift: suspensions and objects never written as files. */
export interface DriftReportExtras {
  suspensions?: readonly SuspensionNotice[];
  skipped?: readonly SkippedObject[];
}

function extrasModel(result: DiffResult, extras: DriftReportExtras, reference: string | undefined, max: number) {
  return {
    // Risky drift has its own table, first.
    reported: neverCodified(result)
      .filter((entry) => !entry.risk)
      .slice(0, max)
      .map((entry) => reportedRow(entry, reference)),
    suspensions: (extras.suspensions ?? []).map((notice) => ({
      resource: notice.resource,
      since: notice.since ? showTime(notice.since, reference) : 'not recorded',
      by: notice.by ?? 'not recorded',
      resume: notice.resume.command,
      drift: notice.drift,
    })),
    skipped: (extras.skipped ?? []).slice(0, max).map((object) => ({
      item: object.item,
      kind: object.id.kind,
      message: object.message,
      compared: object.compared,
    })),
  };
}

function model(
  result: DiffResult,
  max: number,
  reference: string | undefined,
  extras: DriftReportExtras = {},
): DriftReportModel {
  const diffs: ValueDiffModel[] = [];
  const numbered = { count: 0 };
  const rows: DriftReportRowModel[] = [];
  for (const r of result.resources) {
    if (r.status === 'in-sync') continue;
    const resource = displayKey(r.key);
    if (r.status === 'missing' || r.status === 'extra' || r.changes.length === 0) {
      const by = r.status === 'extra' ? r.createdBy : undefined;
      rows.push({
        status: r.status,
        resource,
        field: '',
        pointer: '',
        op: r.status === 'extra' ? 'add' : 'replace',
        ...whoWhen(by?.manager, by?.time, reference),
        cause: by?.cause ?? 'unknown',
      });
      continue;
    }
    for (const change of r.changes) {
      if (rows.length >= max) break;
      rows.push({ status: r.status, resource, ...changeRow(r.key, change, { reference, resource, diffs, numbered }) });
    }
  }
  const shown = rows.slice(0, max);
  const total = result.resources.reduce((n, r) => n + (r.status === 'in-sync' ? 0 : Math.max(1, r.changes.length)), 0);
  const numbers = new Set(shown.map((row) => row.diff));
  const risky = riskyDrift(result);
  return {
    risky: riskyRows(risky.slice(0, max), reference),
    riskyOmitted: Math.max(0, risky.length - max),
    summary: result.summary,
    headline: driftReportHeadline(result.summary),
    unlisted: result.unlisted,
    ...(reference ? { snapshotAt: showTime(reference) } : {}),
    rows: shown,
    diffs: diffs.filter((diff) => numbers.has(diff.number)),
    rowsOmitted: Math.max(0, total - shown.length),
    ...extrasModel(result, extras, reference, max),
  };
}

/** `capturedAt`: the snapshot's time; times on its day are shown without the date. */
export function renderDriftMarkdown(
  result: DiffResult,
  options: { templates?: TemplateOverrides; capturedAt?: string } & DriftReportExtras = {},
): string {
  const levels = [Infinity, 500, 50, 0].map((max) => () => model(result, max, options.capturedAt, options));
  return renderDocument('drift-markdown', levels, GITHUB_BODY_LIMIT, options.templates);
}
