// The `driftback / plan` check run: conclusion, title, summary, and line annotations for every
// warning or error tied to a manifest line. GitHub takes at most 50 annotations per request.
import { formatProblem, type Plan, type PlanWarning, type SourceProblem } from '../model/index.js';
import { planHeadline, WARNING_TITLES } from './plan-view.js';
import { escapeProse, escapeText, inlineCode } from './escape.js';
import { displayKey } from '../model/index.js';
import { fitBudget, GITHUB_BODY_LIMIT } from './budget.js';
import type { Config } from '../config/index.js';

export type CheckConclusion = 'success' | 'neutral' | 'action_required' | 'failure';
export type AnnotationLevel = 'notice' | 'warning' | 'failure';

export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: AnnotationLevel;
  message: string;
  title: string;
}

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
  conclusion: CheckConclusion;
  annotations: CheckAnnotation[];
}

/** GitHub's cap on annotations in one create/update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

export function chunkAnnotations<T>(annotations: T[], size = ANNOTATIONS_PER_REQUEST): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < annotations.length; i += size) chunks.push(annotations.slice(i, i + size));
  return chunks;
}

function warningLine(cluster: string, warning: PlanWarning): string {
  const resource = warning.id ? ` ${inlineCode(displayKey(warning.id))}` : '';
  return `- ⚠️ **${WARNING_TITLES[warning.code]}**${resource} (${escapeText(cluster)}): ${escapeProse(warning.message)}`;
}

/** Annotations are plain text on GitHub: a `code` span's backticks would show as they are. */
function plainText(message: string): string {
  return message.replace(/`([^`\n]+)`/g, '$1');
}

export function renderCheckRun(
  plans: Array<{ cluster: string; plan: Plan }>,
  options: { errors?: SourceProblem[]; text?: string; dataLoss?: Config['plan']['dataLossConclusion'] } = {},
): CheckRunOutput {
  const errors = options.errors ?? [];
  const warnings = plans.flatMap(({ cluster, plan }) => plan.warnings.map((warning) => ({ cluster, warning })));
  // A prune that deletes data asks a person to look (`plan.dataLossConclusion`); other warnings inform.
  const losesData = warnings.some(({ warning }) => warning.code === 'prune-protected');
  const conclusion: CheckConclusion = errors.length
    ? 'failure'
    : losesData
      ? (options.dataLoss ?? 'action_required')
      : warnings.length
        ? 'neutral'
        : 'success';
  const counts = plans.reduce(
    (n, { plan }) => ({
      create: n.create + plan.create.length,
      update: n.update + plan.update.length,
      prune: n.prune + plan.prune.length,
    }),
    { create: 0, update: 0, prune: 0 },
  );
  const title = errors.length
    ? `${errors.length} error${errors.length === 1 ? '' : 's'} in the manifests or config`
    : `${counts.create} to create, ${counts.update} to update, ${counts.prune} to prune${warnings.length ? ` · ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''}`;
  const lines = [
    ...plans.map(({ cluster, plan }) => `- **${escapeText(cluster)}**: ${escapeText(planHeadline(plan))}`),
    ...(errors.length ? ['', '### Errors', '', ...errors.map((e) => `- ${escapeText(formatProblem(e))}`)] : []),
    ...(warnings.length
      ? ['', '### Warnings', '', ...warnings.map(({ cluster, warning }) => warningLine(cluster, warning))]
      : []),
  ];
  const summary = fitBudget(
    [
      () => lines.join('\n'),
      () =>
        lines.slice(0, plans.length).join('\n') +
        `\n\n${warnings.length} warnings and ${errors.length} errors: see the annotations.`,
    ],
    GITHUB_BODY_LIMIT - 1,
  ).body;
  const annotations: CheckAnnotation[] = [
    ...errors
      .filter((e) => e.line)
      .map((e) => ({
        path: e.file,
        start_line: e.line!,
        end_line: e.line!,
        annotation_level: 'failure' as const,
        title: e.field ? `driftback: ${e.field}` : 'driftback: error',
        message: plainText(e.message),
      })),
    ...warnings
      .filter(({ warning }) => warning.file && warning.line)
      .map(({ cluster, warning }) => ({
        path: warning.file!,
        start_line: warning.line!,
        end_line: warning.line!,
        annotation_level: 'warning' as const,
        title:
          `${WARNING_TITLES[warning.code]}${warning.id ? `: ${displayKey(warning.id)}` : ''} (${cluster}, ${warning.code})`.slice(
            0,
            255,
          ),
        message: plainText(warning.message).slice(0, 64_000),
      })),
  ];
  return {
    title: title.slice(0, 1000),
    summary,
    ...(options.text ? { text: options.text.slice(0, GITHUB_BODY_LIMIT - 1) } : {}),
    conclusion,
    annotations,
  };
}
