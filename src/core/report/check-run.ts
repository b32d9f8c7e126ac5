// The `driftback / plan` check run: conclusion, title, summary, and line annotations for every
// warning or error tied to a manifest line. GitHub takes at most 50 annotations per request.
import { counted, formatProblem, type Plan, type PlanWarning, type SourceProblem } from '../model/index.js';
import { planHeadline, WARNING_TITLES } from './plan-view.js';
import { escapeHtml, escapeProse, escapeText, inlineCode } from './escape.js';
import { namesText, warningDigest } from './plan-groups.js';
import { displayKey } from '../model/index.js';
import { FOLD_OVER, fitBudget, GITHUB_BODY_LIMIT } from './budget.js';
import type { Config } from '../config/index.js';
import type { ConfigChangeNote } from './plan-comment.js';

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
  const line = `- ⚠️ **${WARNING_TITLES[warning.code]}**${resource} (${escapeText(cluster)}): ${escapeProse(warning.message)}`;
  const objects = (warning.objects ?? []).map((key) => inlineCode(displayKey(key)));
  if (objects.length === 0) return line;
  const more = objects.length > 10 ? ` and ${objects.length - 10} more` : '';
  return `${line} Not shown: ${objects.slice(0, 10).join(', ')}${more}.`;
}

/** Annotations are plain text on GitHub: a `code` span's backticks would show as they are. */
function plainText(message: string): string {
  return message.replace(/`([^`\n]+)`/g, '$1');
}

type ClusterPlan = { cluster: string; plan: Plan };
type ClusterWarning = { cluster: string; warning: PlanWarning };

export interface CheckRunOptions {
  errors?: SourceProblem[];
  /** The pull request changes the config: the check run's text says what its version would change. */
  configChange?: ConfigChangeNote;
  dataLoss?: Config['plan']['dataLossConclusion'];
}

export function renderCheckRun(plans: ClusterPlan[], options: CheckRunOptions = {}): CheckRunOutput {
  const errors = options.errors ?? [];
  const warnings = plans.flatMap(({ cluster, plan }) => plan.warnings.map((warning) => ({ cluster, warning })));
  const text = options.configChange ? configChangeText(options.configChange) : undefined;
  return {
    title: checkTitle(plans, errors, warnings).slice(0, 1000),
    summary: checkSummary(plans, errors, warnings),
    ...(text ? { text: text.slice(0, GITHUB_BODY_LIMIT - 1) } : {}),
    conclusion: checkConclusion(errors, warnings, options.dataLoss),
    annotations: [...errorAnnotations(errors), ...warningAnnotations(warnings)],
  };
}

/** Errors fail; a prune that deletes data asks a person to look (`plan.dataLossConclusion`); other warnings inform. */
function checkConclusion(
  errors: readonly SourceProblem[],
  warnings: readonly ClusterWarning[],
  dataLoss: CheckRunOptions['dataLoss'],
): CheckConclusion {
  if (errors.length) return 'failure';
  if (warnings.some(({ warning }) => warning.code === 'prune-protected')) return dataLoss ?? 'action_required';
  return warnings.length ? 'neutral' : 'success';
}

/** `2 to create, 1 to update, 0 to prune · 3 warnings`, or how many errors stopped the plan. */
function checkTitle(plans: ClusterPlan[], errors: readonly SourceProblem[], warnings: readonly ClusterWarning[]) {
  if (errors.length) return `${errors.length} error${errors.length === 1 ? '' : 's'} in the manifests or config`;
  const count = (action: 'create' | 'update' | 'prune') => plans.reduce((n, { plan }) => n + plan[action].length, 0);
  const warned = warnings.length ? ` · ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : '';
  return `${count('create')} to create, ${count('update')} to update, ${count('prune')} to prune${warned}`;
}

/** A list, folded behind a summary that counts it when it is longer than `FOLD_OVER` items. */
function folded(items: string[], summary: string): string[] {
  if (items.length <= FOLD_OVER) return items;
  return [`<details><summary>${escapeHtml(summary)}</summary>`, '', ...items, '', '</details>'];
}

/** One line per cluster and kind of warning (`⚠️ Deletes data (prod, 5): …`), above the folded warnings. */
function digestLines(plans: ClusterPlan[]): string[] {
  return plans.flatMap(({ cluster, plan }) =>
    warningDigest(plan.warnings, WARNING_TITLES).map((line) => {
      const names = line.names.length ? `: ${namesText(line)}` : '';
      return `- ⚠️ **${escapeText(line.title)}** (${escapeText(cluster)}, ${line.count})${names}`;
    }),
  );
}

function warningLines(plans: ClusterPlan[], warnings: readonly ClusterWarning[]): string[] {
  if (!warnings.length) return [];
  const all = warnings.map(({ cluster, warning }) => warningLine(cluster, warning));
  const list = all.length > FOLD_OVER ? [...digestLines(plans), ''] : [];
  return ['', '### Warnings', '', ...list, ...folded(all, `The ${all.length} warnings, each with what to do`)];
}

/**
 * One headline per cluster, then every error and warning (more than 20: one line per kind of warning,
 * the full list folded); only the headlines when that is too long.
 */
function checkSummary(
  plans: ClusterPlan[],
  errors: readonly SourceProblem[],
  warnings: readonly ClusterWarning[],
): string {
  const errorLines = errors.map((e) => `- ${escapeText(formatProblem(e))}`);
  const lines = [
    ...plans.map(({ cluster, plan }) => `- **${escapeText(cluster)}**: ${escapeText(planHeadline(plan))}`),
    ...(errors.length ? ['', '### Errors', '', ...folded(errorLines, `${errors.length} errors`)] : []),
    ...warningLines(plans, warnings),
  ];
  const headlines = lines.slice(0, plans.length).join('\n');
  const seeAnnotations = `${counted(warnings.length, 'warning')} and ${counted(errors.length, 'error')}: see the annotations.`;
  const digest = () => [headlines, '', '### Warnings', '', ...digestLines(plans), '', seeAnnotations].join('\n');
  const short = () => `${headlines}\n\n${seeAnnotations}`;
  return fitBudget([() => lines.join('\n'), digest, short], GITHUB_BODY_LIMIT - 1).body;
}

function errorAnnotations(errors: readonly SourceProblem[]): CheckAnnotation[] {
  return errors
    .filter((e) => e.line)
    .map((e) => ({
      path: e.file,
      start_line: e.line!,
      end_line: e.line!,
      annotation_level: 'failure' as const,
      title: e.field ? `driftback: ${e.field}` : 'driftback: error',
      message: plainText(e.message),
    }));
}

function warningAnnotations(warnings: readonly ClusterWarning[]): CheckAnnotation[] {
  return warnings
    .filter(({ warning }) => warning.file && warning.line)
    .map(({ cluster, warning }) => {
      const resource = warning.id ? `: ${displayKey(warning.id)}` : '';
      return {
        path: warning.file!,
        start_line: warning.line!,
        end_line: warning.line!,
        annotation_level: 'warning' as const,
        title: `${WARNING_TITLES[warning.code]}${resource} (${cluster}, ${warning.code})`.slice(0, 255),
        message: plainText(warning.message).slice(0, 64_000),
      };
    });
}

/** The check run's text when the pull request changes the config: plans use the base branch's. */
export function configChangeText(note: ConfigChangeNote): string {
  const lead =
    note.unplanned ??
    'This plan uses the configuration of the base branch: a pull request is never planned under its own.';
  if (!note.changes) return `${lead} The proposed ${note.file} has errors.`;
  if (note.changes.length === 0)
    return `${lead} Once merged, the proposed ${note.file} changes nothing driftback reads.`;
  return [
    `${lead} Once merged, the proposed ${note.file} would change:`,
    '',
    ...note.changes.map((line) => `- ${escapeText(line)}`),
  ].join('\n');
}

/** The check run of a plan the queue gave up (its last attempt failed): it fails with the reason. */
export function givenUpCheckRun(attempts: number, reason: string): CheckRunOutput {
  return {
    conclusion: 'failure',
    annotations: [],
    title: 'driftback could not plan this pull request',
    summary: `The plan was given up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}.\n\nRe-run this check, or push a commit, to plan again.`,
  };
}
