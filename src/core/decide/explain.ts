// The reconcile's actions as people read them (`driftback reconcile --dry-run`): one line per action
// in the order the App executes them, with `--explain` the rule that produced it and why; and the
// same as one JSON document.
import { switchIssueTitle } from '../report/index.js';
import type { ReconcileAction, ReconcileRule } from './reconcile.js';

/** One action as printed: what the App does, and (explained) which rule decided it and why. */
export interface ActionLine {
  kind: ReconcileAction['kind'];
  summary: string;
  branch?: string;
  pullRequest?: number;
  title?: string;
  labels?: string[];
  files?: string[];
  conclusion?: string;
  rule?: ReconcileRule;
  why?: string;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function summaryOf(action: ReconcileAction): string {
  const pr = 'pullRequest' in action && action.pullRequest !== undefined ? `#${action.pullRequest}` : undefined;
  switch (action.kind) {
    case 'drift-pr.publish':
      return `${pr ? `update ${pr}` : 'open a pull request'} from ${action.branch}: "${action.title}" (one commit, ${plural(action.files.length, 'file')}; labels ${action.labels.join(', ')})`;
    case 'drift-pr.close':
      return `${pr ? `close ${pr} with a comment and delete` : 'delete'} ${action.branch}`;
    case 'drift-pr.keep':
      return `leave ${action.branch}${pr ? ` (${pr})` : ''} as it is`;
    case 'drift-branch.unmanaged':
      return `leave ${action.branch}${pr ? ` (${pr})` : ''} alone and log a warning`;
    case 'emergency.follow':
      return `follow the emergency procedure of ${action.suspensions.join(', ')}`;
    case 'decisions.record':
      return `record the fingerprints of a pull request of ${action.branches.join(', ')} found closed unmerged`;
    case 'security-check.write':
      return `write check run "${action.name}" on ${action.headSha.slice(0, 7)}: ${action.output.conclusion}, ${action.output.title}`;
    case 'switch-issue.write':
      return `${action.issue !== undefined ? `update #${action.issue}` : 'open an issue'}: "${switchIssueTitle(action.view)}"`;
    case 'switch-issue.close':
      return `close #${action.issue} with a comment`;
    case 'state.record':
      return 'record the cluster state';
  }
}

/** The facts of an action worth a field of their own in JSON. */
function factsOf(action: ReconcileAction): Omit<ActionLine, 'kind' | 'summary' | 'rule' | 'why'> {
  const pr = 'pullRequest' in action && action.pullRequest !== undefined ? { pullRequest: action.pullRequest } : {};
  const branch = 'branch' in action ? { branch: action.branch } : {};
  if (action.kind === 'drift-pr.publish')
    return { ...branch, ...pr, title: action.title, labels: action.labels, files: action.files };
  if (action.kind === 'security-check.write')
    return { title: action.output.title, conclusion: action.output.conclusion };
  return { ...branch, ...pr };
}

export function actionLine(action: ReconcileAction, explain: boolean): ActionLine {
  return {
    kind: action.kind,
    summary: summaryOf(action),
    ...factsOf(action),
    ...(explain ? { rule: action.rule, why: action.why } : {}),
  };
}

/** Numbered lines, in order; explained, each followed by its rule and reason. */
export function actionsText(actions: readonly ReconcileAction[], explain: boolean): string {
  const width = String(actions.length).length;
  const lines = actions.flatMap((action, index) => {
    const number = `${String(index + 1).padStart(width)}.`;
    const line = `${number} ${summaryOf(action)}`;
    return explain ? [line, `${' '.repeat(number.length)} because (${action.rule}): ${action.why}`] : [line];
  });
  return lines.join('\n') + '\n';
}

/** Whether executing the actions writes to GitHub (what `--dry-run`'s exit code tells). */
export function writesToGitHub(actions: readonly ReconcileAction[]): boolean {
  return actions.some(
    (action) =>
      action.kind === 'drift-pr.publish' ||
      action.kind === 'drift-pr.close' ||
      action.kind === 'emergency.follow' ||
      action.kind === 'security-check.write' ||
      action.kind.startsWith('switch-issue.'),
  );
}
