// What the App answers to a PR comment command, as Markdown: help, a refusal, a bad syntax note, the
// evidence behind an item (`explain`), and the decisions recorded. Text from the comment and the
// cluster (reasons, names, managers) is escaped: it never pings anyone or breaks the layout.
import type { Cause } from '../model/index.js';
import { escapeProse, escapeText, inlineCode, type DashboardDecision } from '../report/index.js';
import { itemLabel, objectsOf, type CommandItem } from './command-items.js';
import type { Target } from './parse-command.js';

/** A decision as replies show it: the dashboard's record without the pull request it was made on. */
export type DecisionView = Omit<DashboardDecision, 'pullRequest'>;

/** A decision a drift PR lists: made on it, or (`onSwitchIssue`: its number) on the cluster's emergency switch issue. */
export type ListedDecision = DecisionView & { onSwitchIssue?: number };

const USAGE = [
  '| command | what it does |',
  '|---|---|',
  '| `/driftback plan` | plans this pull request again, on the newest snapshots |',
  '| `/driftback explain <Kind/namespace/name> [<field>]` | why driftback shows or proposes it: manager, operation, time, cause, risk, what the controller does next |',
  '| `/driftback ignore <Kind/namespace/name> [<field>] [because <reason>]` | on a drift PR: stop proposing these live changes now, and open (or update) a pull request adding the ignore rule to `.github/driftback.yml` |',
  '| `/driftback ignore <field> [on <Kind/namespace/name>] [because <reason>]` | the same, field first |',
  "| `/driftback allow <Kind/namespace/name> [<field>] because <reason>` | on a drift PR or an emergency switch issue: codify security-relevant drift held back for a person's decision, or keep a switch flipped by hand |",
  '| `/driftback help` | this list |',
].join('\n');

export function helpReply(): string {
  return [
    '**driftback commands**',
    '',
    USAGE,
    '',
    'Examples: `/driftback explain Deployment/shop/cart`, ' +
      '`/driftback ignore Deployment/shop/cart spec.replicas because scaled for the sale only`, ' +
      '`/driftback allow ClusterRoleBinding/oncall-admin because break-glass access until Friday`.',
    '',
    '`plan`, `ignore` and `allow` need write access to this repository. A cluster-scoped object is ' +
      '`Kind/name`. A field is written as the pull request shows it (`spec.template.spec.containers[api].image`) ' +
      'or as a JSON pointer (`/spec/replicas`).',
  ].join('\n');
}

export function invalidReply(message: string): string {
  return [`driftback could not read that command: ${escapeProse(message)}.`, '', USAGE].join('\n');
}

export function refusalReply(verb: string, login: string, permission: string): string {
  return (
    `Thanks for the command. \`/driftback ${verb}\` changes what driftback does, so it needs write access ` +
    `to this repository, and ${inlineCode(login)} has ${inlineCode(permission)}. ` +
    'Someone with write access can run it; `/driftback explain` and `/driftback help` work for everyone.'
  );
}

/**
 * A command the App gave up on after its retries: which command, why in general terms (the error
 * itself stays in the App's log: it may name hosts, paths or tokens), and what to do.
 */
export function givenUpReply(line: string, attempts: number, interrupted: boolean): string {
  const why = interrupted
    ? 'the App stopped while running it (it ran out of memory or was restarted)'
    : "it failed each time with an error (the App's log has it, under this comment's id)";
  return (
    `driftback could not run ${inlineCode(line)}: it was given up after ${attempts} attempt${attempts === 1 ? '' : 's'}, because ${why}. ` +
    'Part of it may have been done (a decision recorded, a pull request opened): `/driftback explain` shows what is recorded. ' +
    'To try again, write the command in a new comment (an edited comment is not run again).'
  );
}

export function rateLimitedReply(limit: number, minutes: number): string {
  return (
    `This pull request has had ${limit} driftback commands in the last ${minutes} minutes: this one was not run. ` +
    'Try again in a few minutes.'
  );
}

export function planReply(): string {
  return 'Planning this pull request again on the newest snapshots: the plan comment and the `driftback / plan` check will be updated.';
}

export function notDriftPullRequestReply(verb: string): string {
  return (
    `\`/driftback ${verb}\` decides on the items of a drift pull request (one driftback opened from a cluster's ` +
    'live changes), and this is not one. To stop driftback comparing a field everywhere, add an ignore rule to ' +
    '`.github/driftback.yml` (`drift.ignore`, with its reason).'
  );
}

/** `plan` or `ignore` on an emergency switch issue: what works there instead. */
export function notOnSwitchIssueReply(verb: 'plan' | 'ignore'): string {
  return (
    `\`/driftback ${verb}\` works on pull requests. On this emergency switch issue, ` +
    '`/driftback allow <field> on <Kind/namespace/name> because …` keeps a switch in Git, and `explain` and `help` answer as on a pull request. ' +
    'To stop driftback reporting a field, add an ignore rule to `.github/driftback.yml` (`drift.ignore`, with its reason).'
  );
}

function targetText(target: Target): string {
  const object = target.object
    ? target.object.namespace
      ? `${target.object.kind}/${target.object.namespace}/${target.object.name}`
      : `${target.object.kind}/${target.object.name}`
    : undefined;
  return [object, target.field].filter(Boolean).join(' ');
}

export function noMatchReply(target: Target, items: readonly CommandItem[]): string {
  const objects = objectsOf(items);
  const listed = objects.length
    ? `It shows: ${objects.slice(0, 20).map(inlineCode).join(', ')}${objects.length > 20 ? ', …' : ''}.`
    : 'It shows no item at the moment.';
  return `driftback shows nothing that matches ${inlineCode(targetText(target))} here. ${listed}`;
}

const CAUSE_RULE: Record<Cause, string> = {
  human: "a person's tool (kubectl verbs, dashboards and UIs, and drift.humanManagers)",
  controller: 'a controller in the cluster (autoscalers, the control plane, webhooks, operators)',
  applier: 'the applier that applies Git (a value Git no longer declares)',
  unknown: "neither a person's tool, a known controller nor configured (drift.humanManagers, drift.appliers)",
};

const STATUS: Record<CommandItem['status'], string> = {
  proposed: 'proposed: the drift pull request writes it into Git',
  'held-back': "held back: it needs a person's decision before it is codified",
  reported: 'reported, never codified',
};

function evidenceLines(item: CommandItem): string[] {
  const by = item.manager ? inlineCode(item.manager) : 'not recorded (no managedFields entry)';
  const how = [item.operation ? `by ${inlineCode(item.operation)}` : '', item.time ? `at ${escapeText(item.time)}` : '']
    .filter(Boolean)
    .join(' ');
  const lines = [
    `- written by ${by}${how ? ` ${how}` : ''} (${item.change})`,
    `- cause: ${item.cause}: ${item.manager ? `${inlineCode(item.manager)} is ` : 'the writer is '}${CAUSE_RULE[item.cause]}`,
    `- ${STATUS[item.status]}${item.why ? `: ${escapeProse(item.why)}` : ''}`,
  ];
  for (const risk of item.risk ?? [])
    lines.push(
      `- risk ${inlineCode(risk.code)}: ${escapeProse(risk.why)}${risk.allowed ? ` (allowed: ${escapeText(risk.allowed)})` : ''}`,
    );
  if (item.next)
    lines.push(
      `- next: ${escapeText(item.next.by)} will ${item.next.what}${item.next.when ? ` by ${escapeText(item.next.when)}` : ''}: ${escapeProse(item.next.why)}`,
    );
  return lines;
}

export function decisionLine(decision: DecisionView, where = ''): string {
  const what = decision.action === 'ignore' ? 'ignored' : 'allowed to be codified';
  const item = [decision.object, decision.field].filter(Boolean).join(' ');
  return `${inlineCode(item)}: ${what} by ${inlineCode(decision.by)} at ${escapeText(decision.decidedAt)}${where}: ${escapeText(decision.reason)}`;
}

/** What driftback knows of the items the target names, and the decisions people made on them. */
export function explainReply(
  target: Target,
  items: readonly CommandItem[],
  decisions: readonly DecisionView[],
): string {
  if (items.length === 0 && decisions.length === 0)
    return (
      `driftback shows nothing for ${inlineCode(targetText(target))}: it is in sync, matched by an ignore rule, ` +
      'or its change has not been seen in enough consecutive snapshots yet (drift.minSnapshots).'
    );
  const sections = items
    .slice(0, 30)
    .map((item) => [`**${inlineCode(itemLabel(item))}**`, ...evidenceLines(item)].join('\n'));
  if (items.length > 30)
    sections.push(`… and ${items.length - 30} more items of ${objectsOf(items.slice(30)).length} objects.`);
  if (decisions.length) sections.push(['**Decisions**', ...decisions.map((d) => `- ${decisionLine(d)}`)].join('\n'));
  return sections.join('\n\n');
}

/** What became of the ignore rule an `ignore` proposes for `.github/driftback.yml`. */
export type ConfigChange =
  | { type: 'opened' | 'updated'; number: number; branch: string }
  | { type: 'exists'; number?: number }
  | { type: 'whole-objects' }
  | { type: 'foreign'; branch: string; number?: number; commits: string[] }
  | { type: 'failed'; reason: string };

/** One paragraph of the `ignore` reply: the config pull request, or why there is none. */
export function configChangeText(change: ConfigChange): string {
  switch (change.type) {
    case 'opened':
      return (
        `Opened #${change.number}: it adds the ignore rule to \`.github/driftback.yml\` (\`drift.ignore\`) with this reason. ` +
        'Once it is merged, driftback stops comparing the field whatever its live value.'
      );
    case 'updated':
      return (
        `Added the ignore rule to #${change.number}, the open pull request with driftback's ignore rules for ` +
        '`.github/driftback.yml`. Once it is merged, driftback stops comparing the field whatever its live value.'
      );
    case 'exists':
      return `${change.number !== undefined ? `#${change.number} or \`.github/driftback.yml\`` : '`.github/driftback.yml`'} already has an ignore rule for this: no new rule was proposed.`;
    case 'whole-objects':
      return 'An ignore rule covers fields, not a whole object made by hand: no change to `.github/driftback.yml` was proposed.';
    case 'foreign':
      return (
        `Someone else pushed to ${inlineCode(change.branch)} (${change.commits.slice(0, 3).map(escapeText).join(', ')}), ` +
        `${change.number !== undefined ? `the branch of #${change.number}, ` : ''}and driftback never writes over a person's commit: ` +
        'the ignore rule was not added. Add it there by hand, or delete the branch and run the command again.'
      );
    case 'failed':
      return `The ignore rule for \`.github/driftback.yml\` was not proposed: ${escapeProse(change.reason)}.`;
  }
}

/** The reply to `ignore` or `allow`: what was decided, by whom, when and why, and what happens next. */
export function decidedReply(
  decisions: readonly DecisionView[],
  skipped: readonly CommandItem[],
  config?: ConfigChange,
  onSwitchIssue = false,
): string {
  const lines = decisions.map((d) => `- ${decisionLine(d)}`);
  const action = decisions[0]?.action;
  const next = onSwitchIssue
    ? 'driftback now opens the drift pull request that writes them into Git, each marked with this decision; this issue links it and closes once it is merged.'
    : action === 'ignore'
      ? 'The drift pull request is rebuilt without them now; until an ignore rule covers them, a different live value is new drift and is shown again.'
      : 'The drift pull request is rebuilt with them codified, each marked with this decision.';
  const notes = skipped.map((item) => `- ${inlineCode(itemLabel(item))}: ${skippedWhy(item, action)}`);
  return [
    `Recorded ${decisions.length === 1 ? 'one decision' : `${decisions.length} decisions`}:`,
    ...lines,
    '',
    next,
    ...(config ? ['', configChangeText(config)] : []),
    ...(notes.length ? ['', 'Left as they are:', ...notes] : []),
  ].join('\n');
}

function skippedWhy(item: CommandItem, action: DecisionView['action'] | undefined): string {
  if (!item.fingerprint) return 'nothing codifies it, so there is nothing to decide';
  if (action === 'allow') return 'it is not held back for a decision';
  return 'it is reported and never codified, so there is nothing to ignore';
}

/** What `ignore` or `allow` found nothing to decide on. */
export function nothingToDecideReply(verb: 'ignore' | 'allow', items: readonly CommandItem[]): string {
  const why = items.map((item) => `- ${inlineCode(itemLabel(item))}: ${skippedWhy(item, verb)}`);
  return ['Nothing was recorded:', ...why].join('\n');
}

/**
 * The drift PR's list of decisions people made with comment commands: on it, and on the emergency
 * switch issue for a switch it writes (linked: GitHub turns `#12` into a link to the issue).
 */
export function decisionsSection(decisions: readonly ListedDecision[]): string {
  const where = (decision: ListedDecision): string =>
    decision.onSwitchIssue !== undefined ? ` on the emergency switch issue #${decision.onSwitchIssue}` : '';
  return [
    '### Decided on this pull request',
    '',
    ...decisions.map((decision) => `- ${decisionLine(decision, where(decision))}`),
    '',
    'Ignored items are not proposed again while their live value stays the same; the ignore rule each ' +
      '`/driftback ignore` proposes for `.github/driftback.yml` covers any value once it is merged. ' +
      '`/driftback help` lists the commands.',
  ].join('\n');
}
