// The emergency switch issue: where a person decides about a switch flipped by hand (a CronJob
// suspended, a Rollout paused, KEDA paused) when the cluster has no drift PR to say it on. It says
// what each switch stops, since when and by whom, the exact `/driftback allow …` command that keeps
// it in Git, and what happens when nobody decides. The view is the decision's; the text is the
// `switch-issue` template over its model, which a repository may override.
import { displayKey, showTime, type ResourceKey } from '../model/index.js';
import type { SwitchIssueModel, SwitchModel } from './models/index.js';
import { renderTemplate, type TemplateOverrides } from './template-engine.js';

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

const json = (v: unknown): string | undefined => (v === undefined ? undefined : JSON.stringify(v));

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
function allowCommand(entry: Pick<SwitchIssueEntry, 'field' | 'key'>): string {
  return `/driftback allow ${entry.field} on ${displayKey(entry.key)} because <why it stays>`;
}

function switchModel(entry: SwitchIssueEntry): SwitchModel {
  const live = json(entry.live);
  const git = json(entry.desired);
  return {
    resource: displayKey(entry.key),
    field: entry.field,
    did: entry.did,
    command: entry.command,
    stops: entry.stops,
    on: entry.on,
    ...(live !== undefined ? { live } : {}),
    ...(git !== undefined ? { git } : {}),
    ...(entry.manager ? { who: entry.manager } : {}),
    ...(entry.time ? { since: showTime(entry.time) } : {}),
    file: entry.file,
    ...(entry.decided ? { decided: entry.decided } : { allow: allowCommand(entry) }),
  };
}

/** The issue's model (template `switch-issue`). */
function switchIssueModel(view: SwitchIssueView): SwitchIssueModel {
  return { cluster: view.cluster, switches: view.switches.map(switchModel) };
}

/** The issue: each switch with what it stops, since when, by whom, and how to decide. */
export function renderSwitchIssue(
  view: SwitchIssueView,
  options: { templates?: TemplateOverrides } = {},
): { title: string; body: string } {
  return {
    title: switchIssueTitle(view),
    body: renderTemplate('switch-issue', switchIssueModel(view), options.templates),
  };
}
