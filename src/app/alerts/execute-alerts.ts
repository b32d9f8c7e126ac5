// Executes the alert decisions of core/decide/alerts.ts in their order: an issue opened (or reopened,
// found again by its key) with the document the decision names, rendered with the repository's
// templates; an issue closed with the decision's comment. Each opened issue's number goes into the
// state the decision left.
import { withIssue, type AlertDecision, type OpenAlerts } from '../../core/decide/index.js';
import { NO_OVERRIDES, type TemplateOverrides } from '../../core/report/index.js';
import {
  closeIssue,
  upsertIssueByMarker,
  type AppIdentity,
  type GitHubClient,
  type RepoRef,
} from '../../github/index.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';
import { ALERT_LABELS } from './not-reporting.js';

/** Where alert issues are written, as whom, and how their documents are rendered. */
export interface AlertWriter {
  octokit: GitHubClient;
  repo: RepoRef;
  author: AppIdentity;
  /** Asked for only when an issue is written. */
  templates?: () => Promise<TemplateOverrides>;
  documents?: Documents;
}

export interface AlertChange {
  type: 'opened' | 'reopened' | 'closed';
  resource: string;
  issue: number;
}

export async function executeAlerts(
  writer: AlertWriter,
  decision: AlertDecision,
): Promise<{ changes: AlertChange[]; open: OpenAlerts }> {
  const { octokit, repo, author } = writer;
  const documents = writer.documents ?? renderInPlace;
  let open = decision.next;
  const changes: AlertChange[] = [];
  for (const action of decision.actions) {
    if (action.kind === 'alert.close') {
      await closeIssue(octokit, { ...repo, number: action.issue, comment: action.comment });
      changes.push({ type: 'closed', resource: action.resource, issue: action.issue });
      continue;
    }
    const templates = await (writer.templates ?? (async () => NO_OVERRIDES))();
    const { title, body } =
      action.document === 'renderSuspendedAlert'
        ? await documents(action.document, action.view, { templates })
        : await documents(action.document, action.view, { templates });
    const result = await upsertIssueByMarker(octokit, {
      ...repo,
      key: action.key,
      title,
      body,
      labels: ALERT_LABELS,
      author,
    });
    open = withIssue(open, action.id, result.number);
    const type = result.type === 'reopened' ? 'reopened' : 'opened';
    changes.push({ type, resource: action.resource, issue: result.number });
  }
  return { changes, open };
}
