// The documents a repository's template override can shape, by the core function that renders each
// and the template it reads. A document whose template is overridden is rendered in a job worker
// (the override is the repository's code: it may nest partials or loop without end); the built-in
// templates are the App's own and render in place.
import {
  renderDashboard,
  renderDriftPullRequest,
  renderFixUndoneAlert,
  renderNotReconcilingAlert,
  renderPlanComment,
  renderStaleAlert,
  renderSuspendedAlert,
  renderSwitchIssue,
  type TemplateOverrides,
} from '../../core/report/index.js';

export const DOCUMENTS = {
  renderDashboard,
  renderDriftPullRequest,
  renderFixUndoneAlert,
  renderNotReconcilingAlert,
  renderPlanComment,
  renderStaleAlert,
  renderSuspendedAlert,
  renderSwitchIssue,
};

export type DocumentName = keyof typeof DOCUMENTS;
export type DocumentArgs<K extends DocumentName> = Parameters<(typeof DOCUMENTS)[K]>;
export type DocumentResult<K extends DocumentName> = ReturnType<(typeof DOCUMENTS)[K]>;

/** The template each document reads (src/core/report/templates). */
export const TEMPLATE_OF = {
  renderDashboard: 'dashboard',
  renderDriftPullRequest: 'drift-pull-request',
  renderFixUndoneAlert: 'fix-undone-alert',
  renderNotReconcilingAlert: 'not-reconciling-alert',
  renderPlanComment: 'plan-comment',
  renderStaleAlert: 'stale-alert',
  renderSuspendedAlert: 'suspended-alert',
  renderSwitchIssue: 'switch-issue',
} as const satisfies Record<DocumentName, string>;

/** Renders a document in this thread. */
export function renderHere<K extends DocumentName>(name: K, args: DocumentArgs<K>): DocumentResult<K> {
  return (DOCUMENTS[name] as unknown as (...a: DocumentArgs<K>) => DocumentResult<K>)(...args);
}

/** The overrides a document's last argument carries, if any. */
export function templatesOf(args: readonly unknown[]): TemplateOverrides | undefined {
  const last = args.at(-1) as { templates?: TemplateOverrides } | undefined;
  return last?.templates;
}

/** The same arguments with the document's override marked as not usable, for `reason`. */
export function withFailedOverride<K extends DocumentName>(
  name: K,
  args: DocumentArgs<K>,
  reason: string,
): DocumentArgs<K> {
  const templates = templatesOf(args)!;
  const failed = { ...templates.failed, [TEMPLATE_OF[name]]: reason };
  const last = { ...(args.at(-1) as object), templates: { ...templates, failed } };
  return [...args.slice(0, -1), last] as unknown as DocumentArgs<K>;
}

/** Renders documents for one repository (a template override in a job worker, when the App has them). */
export type Documents = <K extends DocumentName>(name: K, ...args: DocumentArgs<K>) => Promise<DocumentResult<K>>;

/** Every document in this thread: for callers given no job workers (unit tests of one module). */
export const renderInPlace: Documents = async (name, ...args) => renderHere(name, args);
