// `driftback diff --format markdown`: the drift report as a Markdown table.
import { displayKey, type DiffResult } from '../model/index.js';
import { fitBudget, GITHUB_BODY_LIMIT } from './budget.js';
import { renderTemplate, type TemplateOverrides } from './engine.js';
import { shortValue } from './drift-pull-request.js';

function view(result: DiffResult, max: number) {
  const rows = result.resources
    .filter((r) => r.status !== 'in-sync')
    .flatMap((r) => {
      const resource = displayKey(r.key);
      if (r.status === 'missing' || r.status === 'extra' || r.changes.length === 0) {
        return [{ status: r.status, resource, field: '', git: r.status === 'missing' ? '(declared)' : '(absent)', live: r.status === 'extra' ? '(present)' : '(absent)', who: r.createdBy?.manager ?? '', when: r.createdBy?.time ?? '', cause: r.createdBy?.cause ?? '' }];
      }
      return r.changes.map((c) => ({ status: r.status, resource, field: c.path, git: shortValue(c.desired), live: shortValue(c.live), who: c.manager ?? '', when: c.time ?? '', cause: c.cause }));
    });
  return { summary: result.summary, unlisted: result.unlisted, rows: rows.slice(0, max), rowsOmitted: Math.max(0, rows.length - max) };
}

export function renderDriftMarkdown(result: DiffResult, options: { templates?: TemplateOverrides } = {}): string {
  return fitBudget([Infinity, 500, 50, 0].map((max) => () => renderTemplate('drift-markdown', view(result, max), options.templates)), GITHUB_BODY_LIMIT).body;
}
