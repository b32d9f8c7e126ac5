// Markdown of the emergency procedure: the section atop a drift PR made under a suspension (what
// changed, who, when, the suspended source, the step that resumes it, the checklist the App ticks),
// the "verified" comment, and the alerts for a suspension past its deadline and a fix undone.
import type { Checklist, EmergencyChange, MovedField, Suspension } from '../emergency/index.js';
import { renderChecklist, resumeDeadline, resumeStep, suspensionLabel } from '../emergency/index.js';
import { displayKey, showTime } from '../model/index.js';
import { formatAge, secondsBetween } from '../plan/age.js';
import { cellCode, cellText, escapeText, inlineCode } from './escape.js';
import { shortValue } from '../model/show.js';
import type { RenderedIssue } from './alerts.js';
import { renderTemplate } from './template-engine.js';
import type { TemplateOverrides } from './overrides.js';

/** A suspension as the App shows it; `since` is the first snapshot that showed it when nothing recorded it. */
export interface SuspensionView {
  suspension: Suspension;
  since: string;
  /** True when `since` is when the App first saw it, not a recorded write. */
  sinceSeen?: boolean;
}

function sinceText(view: SuspensionView, reference?: string): string {
  const at = showTime(view.since, reference);
  return view.sinceSeen ? `at least ${at} (first seen then; nothing records who turned it off)` : at;
}

/** When the suspension was written, in words that stay true after the resume. */
function suspendedAt(view: SuspensionView): string {
  const at = showTime(view.since);
  return view.sinceSeen ? `no later than ${at} (first seen then; nothing records who turned it off)` : `at ${at}`;
}

function whoText(view: SuspensionView): string {
  return view.suspension.who ? ` by ${inlineCode(view.suspension.who)}` : '';
}

function changeRow(change: EmergencyChange): string {
  const who = change.manager ? cellText(change.manager) : 'unknown';
  const when = change.time ? escapeText(showTime(change.time)) : 'unknown';
  const value = cellCode(shortValue(change.value));
  return `| ${cellCode(displayKey(change.key))}<br>${cellCode(change.field)} | ${value} | ${who}<br>${when} |`;
}

/** `(resume within 8h: by 18:02 UTC; after that driftback opens an alert)`, or '' without a deadline. */
function deadlineText(view: SuspensionView, resumeWithin: string | undefined): string {
  const by = resumeWithin === undefined ? undefined : resumeDeadline(view.since, resumeWithin);
  if (!by) return '';
  return ` (resume within ${escapeText(resumeWithin!)}: by ${escapeText(showTime(by, view.since))}; after that driftback opens an alert)`;
}

/**
 * The procedure an emergency PR opens with. Each fact is said once, in words that stay true once the
 * source is resumed (the checklist, rewritten by the follow-up, says how far the procedure got).
 * `resumeWithin`: `emergency.resumeWithin`, from which the deadline is the suspension's time plus it.
 */
export function renderEmergencySection(
  view: SuspensionView,
  changes: readonly EmergencyChange[],
  checklist: Checklist,
  resumeWithin?: string,
): string {
  const label = suspensionLabel(view.suspension);
  const step = resumeStep(view.suspension);
  return [
    '## Emergency change',
    '',
    `> [!WARNING]`,
    `> ${inlineCode(label)} was suspended ${escapeText(suspendedAt(view))}${whoText(view)}. ` +
      'These changes were made while it did not reconcile: they stay in the cluster until it is resumed, ' +
      'and then the controller applies Git as it is.',
    '',
    '| object, field | live value | who, when |',
    '| --- | --- | --- |',
    ...changes.map(changeRow),
    '',
    'The procedure, the same day:',
    '',
    '1. Review and merge this pull request: Git then holds the fix.',
    `2. Then ${escapeText(step.text)}${deadlineText(view, resumeWithin)}: ${inlineCode(step.command)}`,
    '3. driftback watches the snapshots that follow, ticks each step below, and comments once cluster and Git agree.',
    '',
    renderChecklist(checklist),
  ].join('\n');
}

/** `a`, `a and b`, `a, b and c`. */
function listed(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * The title of an emergency drift PR: what changed, where (`Emergency: Deployment/shop/cart image and
 * replicas on prod`); each field by its last name, the first object named and the others counted.
 */
export function emergencyTitle(cluster: string, changes: readonly Pick<EmergencyChange, 'key' | 'segments'>[]): string {
  const objects = [...new Set(changes.map((change) => displayKey(change.key)))];
  const first = changes.filter((change) => displayKey(change.key) === objects[0]);
  const names = first.map((change) => change.segments.filter((s) => typeof s === 'string').at(-1) ?? 'fields');
  const more = objects.length - 1;
  const rest = more > 0 ? ` and ${more} more object${more === 1 ? '' : 's'}` : '';
  return `Emergency: ${objects[0]} ${listed([...new Set(names)])}${rest} on ${cluster}`;
}

export function suspendedAlertTitle(cluster: string, view: SuspensionView): string {
  return `driftback: ${cluster}: ${suspensionLabel(view.suspension)} is still suspended`;
}

export interface SuspendedAlertView {
  cluster: string;
  view: SuspensionView;
  now: string;
  resumeWithin: string;
  /** The emergency drift PR made under the suspension, and whether it is merged. */
  pullRequest?: number;
  merged?: boolean;
}

export function renderSuspendedAlert(
  input: SuspendedAlertView,
  options: { templates?: TemplateOverrides } = {},
): RenderedIssue {
  const { view } = input;
  const seconds = secondsBetween(view.since, input.now);
  const body = renderTemplate(
    'suspended-alert',
    {
      cluster: input.cluster,
      resource: suspensionLabel(view.suspension),
      age: seconds === undefined ? 'an unknown time' : formatAge(seconds),
      resumeWithin: input.resumeWithin,
      ...(view.suspension.who ? { who: view.suspension.who } : {}),
      since: sinceText(view, input.now),
      ...(input.pullRequest !== undefined ? { pullRequest: input.pullRequest } : {}),
      merged: input.merged === true,
      resumeCommand: resumeStep(view.suspension).command,
    },
    options.templates,
  );
  return { title: suspendedAlertTitle(input.cluster, view), body };
}

export function fixUndoneAlertTitle(cluster: string, source: string): string {
  return `driftback: ${cluster}: the emergency fix under ${source} was undone`;
}

export interface FixUndoneView {
  cluster: string;
  /** The suspension's id (`flux-system/apps`). */
  source: string;
  changes: ReadonlyArray<Pick<EmergencyChange, 'key' | 'field' | 'value'>>;
  /** Capture time of the first snapshot that showed the source resumed. */
  resumedAt: string;
  pullRequest?: number;
  merged: boolean;
  /** After "verified": when it was verified, and the fields whose live value moved away since. */
  verifiedAt?: string;
  moved?: readonly MovedField[];
}

function movedRow(field: MovedField) {
  return {
    resource: displayKey(field.key),
    field: field.field,
    value: shortValue(field.from),
    now: shortValue(field.to),
    ...(field.manager ? { manager: field.manager } : {}),
    ...(field.time ? { time: showTime(field.time) } : {}),
  };
}

export function renderFixUndoneAlert(
  input: FixUndoneView,
  options: { templates?: TemplateOverrides } = {},
): RenderedIssue {
  const body = renderTemplate(
    'fix-undone-alert',
    {
      cluster: input.cluster,
      source: input.source,
      resumedAt: showTime(input.resumedAt),
      changes: input.moved
        ? input.moved.map(movedRow)
        : input.changes.map((change) => ({
            resource: displayKey(change.key),
            field: change.field,
            value: shortValue(change.value),
          })),
      ...(input.verifiedAt ? { verifiedAt: showTime(input.verifiedAt) } : {}),
      ...(input.pullRequest !== undefined ? { pullRequest: input.pullRequest } : {}),
      merged: input.merged,
    },
    options.templates,
  );
  return { title: fixUndoneAlertTitle(input.cluster, input.source), body };
}
