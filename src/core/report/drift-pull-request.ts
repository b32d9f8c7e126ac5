// The drift pull request body: codified changes, what was only reported and why, what merging means.
import { displayKey, type FieldChange, type ResourceKey } from '../model/index.js';
import { fitBudget, GITHUB_BODY_LIMIT, MARKER_RESERVE } from './budget.js';
import { renderTemplate, type TemplateOverrides } from './engine.js';

/** What codify produced: the shape codify returns. */
export interface DriftPullRequestView {
  cluster: string;
  codified: Array<{ key: ResourceKey; change?: FieldChange; file: string; line?: number; kind: string }>;
  reported: Array<{ key: ResourceKey; change?: FieldChange; reason: string }>;
  snapshot: { id: string; capturedAt: string };
}

export function shortValue(value: unknown): string {
  if (value === undefined) return '(unset)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? text.slice(0, 77) + '…' : text;
}

function rows(view: DriftPullRequestView, max: number) {
  return {
    cluster: view.cluster,
    snapshot: view.snapshot,
    codified: view.codified.slice(0, max).map((c) => ({
      resource: displayKey(c.key),
      field: c.change?.path ?? (c.kind === 'new-file' ? '(whole resource, new manifest)' : '(whole resource)'),
      git: c.change ? shortValue(c.change.desired) : '(absent)',
      live: c.change ? shortValue(c.change.live) : '(live object)',
      who: c.change?.manager ?? '',
      when: c.change?.time ?? '',
      where: `${c.file}${c.line ? `:${c.line}` : ''}`,
    })),
    codifiedOmitted: Math.max(0, view.codified.length - max),
    reported: view.reported.slice(0, max).map((r) => ({ resource: displayKey(r.key), field: r.change?.path ?? '', reason: r.reason })),
    reportedOmitted: Math.max(0, view.reported.length - max),
  };
}

export function renderDriftPullRequest(view: DriftPullRequestView, options: { templates?: TemplateOverrides; limit?: number } = {}): string {
  const limit = options.limit ?? GITHUB_BODY_LIMIT - MARKER_RESERVE;
  return fitBudget([Infinity, 200, 20, 0].map((max) => () => renderTemplate('drift-pull-request', rows(view, max), options.templates)), limit).body;
}
