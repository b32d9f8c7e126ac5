// Executes the alert decisions of core/decide (alert-issues, stale-alert, reconciler-alerts) in their order: an issue opened (or reopened,
// found again by its key) with the document the decision names, rendered with the repository's
// templates; an issue closed with the decision's comment. Each opened issue's number goes into the
// state the decision left.
import { withIssue, type AlertAction, type AlertDecision, type OpenAlerts } from '../../core/decide/index.js';
import { NO_OVERRIDES, type TemplateOverrides } from '../../core/report/index.js';
import {
  closeIssue,
  upsertIssueByMarker,
  type AppIdentity,
  type GitHubClient,
  type RepoRef,
} from '../../github/index.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';

/** Where alert issues are written, as whom, and how their documents are rendered. */
export interface AlertWriter {
  octokit: GitHubClient;
  repo: RepoRef;
  author: AppIdentity;
  /** Asked for only when an issue is written. */
  templates?: () => Promise<TemplateOverrides>;
  documents?: Documents;
}

export const ALERT_LABELS = ['driftback', 'driftback-alert'];

export interface AlertChange {
  type: 'opened' | 'reopened' | 'closed';
  resource: string;
  issue: number;
}

/** The title and body of an opened alert, by the core function its action names. */
async function rendered(
  documents: Documents,
  action: Extract<AlertAction, { kind: 'alert.open' }>,
  templates: TemplateOverrides,
): Promise<{ title: string; body: string }> {
  switch (action.document) {
    case 'renderSuspendedAlert':
      return documents(action.document, action.view, { templates });
    case 'renderFixUndoneAlert':
      return documents(action.document, action.view, { templates });
    case 'renderStaleAlert':
      return documents(action.document, action.view, { templates });
    case 'renderNotReconcilingAlert':
      return documents(action.document, action.view, { templates });
  }
}

/** Executes alert actions in their order; `opened`: each opened (or reopened) issue by its action's id. */
export async function executeAlertActions(
  writer: AlertWriter,
  actions: readonly AlertAction[],
): Promise<{ changes: AlertChange[]; opened: Record<string, number> }> {
  const { octokit, repo, author } = writer;
  const documents = writer.documents ?? renderInPlace;
  const opened: Record<string, number> = {};
  const changes: AlertChange[] = [];
  for (const action of actions) {
    if (action.kind === 'alert.close') {
      await closeIssue(octokit, { ...repo, number: action.issue, comment: action.comment });
      changes.push({ type: 'closed', resource: action.resource, issue: action.issue });
      continue;
    }
    const templates = await (writer.templates ?? (async () => NO_OVERRIDES))();
    const { title, body } = await rendered(documents, action, templates);
    const issue = { ...repo, key: action.key, title, body, labels: ALERT_LABELS, author };
    const result = await upsertIssueByMarker(octokit, issue);
    opened[action.id] = result.number;
    const type = result.type === 'reopened' ? 'reopened' : 'opened';
    changes.push({ type, resource: action.resource, issue: result.number });
  }
  return { changes, opened };
}

/** Executes a decision about open alerts by id; `open`: the state it left, with the issues opened. */
export async function executeAlerts(
  writer: AlertWriter,
  decision: AlertDecision,
): Promise<{ changes: AlertChange[]; open: OpenAlerts }> {
  const { changes, opened } = await executeAlertActions(writer, decision.actions);
  let open = decision.next;
  for (const [id, issue] of Object.entries(opened)) open = withIssue(open, id, issue);
  return { changes, open };
}
