// `driftback diff --format markdown`: the drift report as a Markdown table, rows read as the drift
// pull request reads them (field paths by key, compact values, who and when).
import { displayKey, showTime, type DiffResult } from '../model/index.js';
import { GITHUB_BODY_LIMIT } from './budget.js';
import { changeRow, whoWhen } from './change-rows.js';
import { renderDocument, type TemplateOverrides } from './engine.js';
import { riskyRows } from './risk-rows.js';
import { riskyDrift } from '../risk/index.js';
import type { DriftReportModel, DriftReportRowModel, ValueDiffModel } from './models/index.js';

export function driftReportHeadline(summary: DiffResult['summary']): string {
  const { modified, missing, extra, inSync, ignored, conflicts } = summary;
  const line = `${modified} modified, ${missing} missing, ${extra} extra, ${inSync} in sync`;
  const more = [...(ignored ? [`${ignored} ignored`] : []), ...(conflicts ? [`${conflicts} conflicts`] : [])];
  return more.length ? `${line}; ${more.join(', ')}` : line;
}

function model(result: DiffResult, max: number, reference: string | undefined): DriftReportModel {
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
  };
}

/** `capturedAt`: the snapshot's time; times on its day are shown without the date. */
export function renderDriftMarkdown(
  result: DiffResult,
  options: { templates?: TemplateOverrides; capturedAt?: string } = {},
): string {
  const levels = [Infinity, 500, 50, 0].map((max) => () => model(result, max, options.capturedAt));
  return renderDocument('drift-markdown', levels, GITHUB_BODY_LIMIT, options.templates);
}
