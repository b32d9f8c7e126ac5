// The emergency switch issue: where a person decides about a switch flipped by hand (a CronJob
// suspended, a Rollout paused, KEDA paused) when the cluster has no drift PR to say it on. It says
// what each switch stops, since when and by whom, the exact `/driftback allow …` command that keeps
// it in Git, and what happens when nobody decides. Text from the cluster is escaped.
import { displayKey, showTime, type ResourceKey } from '../model/index.js';
import { codeBlock, escapeProse, escapeText, inlineCode } from './escape.js';

/** One switch as the issue shows it. */
export interface SwitchIssueEntry {
  key: ResourceKey;
  /** As the command names it (`spec.suspend`). */
  field: string;
  /** The value live holds, and Git's (undefined: Git does not declare it). */
  live: unknown;
  desired?: unknown;
  /** What it did (`suspended`), the command that flips it, and what it stops while on. */
  did: string;
  command: string;
  stops: string;
  /** false: turned off by hand while Git keeps it on. */
  on: boolean;
  manager?: string;
  time?: string;
  /** The file in Git that declares the object: where a decision writes the value. */
  file: string;
  /** A person's decision to keep it: who and why (`decided by alice: …`), and the drift PR that writes it. */
  decided?: { text: string; branch: string; pullRequest?: number };
}

export interface SwitchIssueView {
  cluster: string;
  switches: readonly SwitchIssueEntry[];
}

const value = (v: unknown): string => (v === undefined ? 'not set' : inlineCode(JSON.stringify(v)));

function headline(entry: SwitchIssueEntry): string {
  return entry.on
    ? `${entry.key.kind} ${entry.key.namespace ? `${entry.key.namespace}/` : ''}${entry.key.name} ${entry.did}`
    : `${entry.key.kind} ${entry.key.namespace ? `${entry.key.namespace}/` : ''}${entry.key.name} no longer ${entry.did} though Git keeps it so`;
}

/** `Emergency switch flipped on prod: CronJob shop/archive suspended` (and how many more). */
export function switchIssueTitle(view: SwitchIssueView): string {
  const [first] = view.switches;
  const more = view.switches.length - 1;
  const noun = view.switches.length === 1 ? 'switch' : 'switches';
  return `Emergency ${noun} flipped on ${view.cluster}: ${first ? headline(first) : 'none left'}${more > 0 ? ` and ${more} more` : ''}`;
}

/** The exact command that keeps the switch in Git, with the reason left for the person to write. */
export function allowCommand(entry: Pick<SwitchIssueEntry, 'field' | 'key'>): string {
  return `/driftback allow ${entry.field} on ${displayKey(entry.key)} because <why it stays>`;
}

function decisionLines(entry: SwitchIssueEntry): string[] {
  const { decided } = entry;
  if (!decided) {
    return [
      `- **To keep it in Git**, comment here (write access to this repository needed):`,
      '',
      codeBlock(allowCommand(entry)),
      '',
      `  driftback then opens the drift pull request that writes exactly this value into ${inlineCode(entry.file)}; ` +
        'this issue closes once it is merged.',
    ];
  }
  const where =
    decided.pullRequest !== undefined
      ? `#${decided.pullRequest} writes it into ${inlineCode(entry.file)}`
      : `the drift pull request of ${inlineCode(decided.branch)} writes it into ${inlineCode(entry.file)}`;
  return [`- **Kept in Git**, ${escapeProse(decided.text)}: ${where}; this issue closes once it is merged.`];
}

function entrySection(entry: SwitchIssueEntry): string {
  const who = entry.manager ? ` by ${inlineCode(entry.manager)}` : '';
  const since = entry.time ? `since ${escapeText(showTime(entry.time))}${who}` : `flipped${who}, time unknown`;
  const stops = entry.on
    ? `- **What it stops:** ${escapeProse(entry.stops)}.`
    : `- **What it does:** Git keeps the switch on; the next sync turns it on again.`;
  return [
    `### ${inlineCode(displayKey(entry.key))} ${inlineCode(entry.field)}`,
    '',
    stops,
    `- **Live:** ${value(entry.live)} ${since} (${inlineCode(entry.command)}${entry.on ? '' : ' undone'}); **Git:** ${value(entry.desired)} in ${inlineCode(entry.file)}.`,
    ...decisionLines(entry),
  ].join('\n');
}

/** The issue body: each switch with what it stops, since when, by whom, and how to decide. */
export function renderSwitchIssue(view: SwitchIssueView): { title: string; body: string } {
  const body = [
    `An emergency switch was flipped by hand on ${inlineCode(view.cluster)}, and the cluster has no other drift to ` +
      'open a drift pull request for. driftback never writes a switch into Git on its own: kept in Git, it would ' +
      "stay flipped for good. That takes a person's decision, made here.",
    '',
    ...view.switches.map(entrySection).flatMap((section) => [section, '']),
    '### If nobody decides',
    '',
    'The switch stays reported: here, on the dashboard, and in `driftback diff`. Nothing is written into Git. ' +
      "Turning it back by hand (to Git's value) clears it, and this issue closes.",
  ].join('\n');
  return { title: switchIssueTitle(view), body };
}
