// Markdown of the emergency procedure: the section atop a drift PR made under a suspension (what
// changed, who, when, the suspended source, the step that resumes it, the checklist the App ticks),
// the "verified" comment, and the alerts for a suspension past its deadline and a fix undone.
import type { Checklist, EmergencyChange, Suspension } from '../emergency/index.js';
import { resumeStep, suspensionLabel } from '../emergency/index.js';
import { displayKey, showTime } from '../model/index.js';
import { formatAge, secondsBetween } from '../plan/age.js';
import { escapeText, inlineCode } from './escape.js';
import { shortValue } from '../model/show.js';
import type { RenderedIssue } from './alerts.js';

const CHECKLIST_START = '<!-- driftback:emergency-checklist -->';
const CHECKLIST_END = '<!-- /driftback:emergency-checklist -->';

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

function whoText(view: SuspensionView): string {
  return view.suspension.who ? ` by ${inlineCode(view.suspension.who)}` : '';
}

export function renderChecklist(checklist: Checklist): string {
  const box = (done: boolean, text: string) => `- [${done ? 'x' : ' '}] ${text}`;
  return [
    CHECKLIST_START,
    box(checklist.merged, 'merged: Git holds the fix'),
    box(checklist.resumed, 'resumed: the controller reconciles again'),
    box(checklist.applied, 'applied: the controller applied a revision that includes the merge commit'),
    box(checklist.inSync, 'in sync: no drift left'),
    CHECKLIST_END,
  ].join('\n');
}

/** The body with its checklist replaced; undefined when the body has none. */
export function withChecklist(body: string, checklist: Checklist): string | undefined {
  const start = body.indexOf(CHECKLIST_START);
  const end = body.indexOf(CHECKLIST_END);
  if (start === -1 || end < start) return undefined;
  return body.slice(0, start) + renderChecklist(checklist) + body.slice(end + CHECKLIST_END.length);
}

function changeRow(change: EmergencyChange): string {
  const who = change.manager ? inlineCode(change.manager) : 'unknown';
  const when = change.time ? escapeText(showTime(change.time)) : 'unknown';
  const value = inlineCode(shortValue(change.value));
  return `| ${inlineCode(displayKey(change.key))} | ${inlineCode(change.field)} | ${value} | ${who} | ${when} |`;
}

export function renderEmergencySection(
  view: SuspensionView, changes: readonly EmergencyChange[], checklist: Checklist,
): string {
  const label = suspensionLabel(view.suspension);
  const step = resumeStep(view.suspension);
  return [
    '## Emergency change',
    '',
    `> [!WARNING]`,
    `> ${inlineCode(label)} is suspended since ${escapeText(sinceText(view))}${whoText(view)}. `
      + 'These changes were made while it does not reconcile: '
      + 'they stay in the cluster, and nothing merged deploys until it is resumed.',
    '',
    '| resource | field | live value | who | when |',
    '| --- | --- | --- | --- | --- |',
    ...changes.map(changeRow),
    '',
    'The procedure, the same day:',
    '',
    '1. Review and merge this pull request: Git then holds the fix.',
    `2. Then ${escapeText(step.text)}: ${inlineCode(step.command)}`,
    '3. driftback watches the snapshots that follow, ticks each step below, and comments once cluster and Git agree.',
    '',
    renderChecklist(checklist),
  ].join('\n');
}

export function verifiedComment(sha: string): string {
  return `verified: cluster and Git agree at \`${sha}\``;
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

function waitingOn(input: SuspendedAlertView): string {
  if (input.pullRequest === undefined) {
    return 'There is no drift under it and no pull request waiting on it: a forgotten suspension. '
      + 'Resume it, or say why it must stay.';
  }
  const pull = `#${input.pullRequest}`;
  if (input.merged) return `Its emergency pull request ${pull} is merged: resume the source so the merge deploys.`;
  return `Its emergency pull request is ${pull}: merge it, then resume.`;
}

export function renderSuspendedAlert(input: SuspendedAlertView): RenderedIssue {
  const { view } = input;
  const label = suspensionLabel(view.suspension);
  const seconds = secondsBetween(view.since, input.now);
  const age = seconds === undefined ? 'an unknown time' : formatAge(seconds);
  const step = resumeStep(view.suspension);
  const { who: manager } = view.suspension;
  const who = manager ? `${inlineCode(manager)} suspended it` : 'Nothing records who suspended it';
  const body = [
    `${inlineCode(label)} in ${inlineCode(input.cluster)} has been suspended for ${age}, `
      + `longer than ${inlineCode('emergency.resumeWithin')} (${escapeText(input.resumeWithin)}). `
      + `${who} at ${escapeText(sinceText(view, input.now))}.`,
    '',
    'A suspension nobody remembers is drift with the safety net switched off: '
      + 'whatever is merged for this source never deploys, and whatever is changed by hand stays.',
    '',
    waitingOn(input),
    '',
    `To resume: ${inlineCode(step.command)}`,
    '',
    'driftback closes this issue when a snapshot shows the source reconciling again.',
  ].join('\n');
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
}

export function renderFixUndoneAlert(input: FixUndoneView): RenderedIssue {
  const lines = input.changes.map((change) => `- ${inlineCode(displayKey(change.key))} ${inlineCode(change.field)}: `
    + `the fix set ${inlineCode(shortValue(change.value))}; the cluster no longer has it`);
  const pull = input.pullRequest !== undefined ? ` (#${input.pullRequest})` : '';
  const why = input.merged
    ? 'The pull request was merged, but the cluster does not hold its value: '
      + 'the drift is back or the controller applied an older revision.'
    : `The source was resumed before its emergency pull request${pull} was merged, `
      + 'so the controller applied Git as it was and reverted the fix.';
  const body = [
    `The emergency fix made under ${inlineCode(input.source)} in ${inlineCode(input.cluster)} was undone `
      + `after the source was resumed (seen ${escapeText(showTime(input.resumedAt))}).`,
    '',
    ...lines,
    '',
    why,
    '',
    'If the fix is still needed, make it in Git (merge the pull request, or a new one) '
      + 'and let the controller apply it.',
  ].join('\n');
  return { title: fixUndoneAlertTitle(input.cluster, input.source), body };
}
