// Issues the App keeps (dashboard, alerts): found again by their marker among open and closed
// issues with the label, reopened rather than duplicated, left alone when the hash is unchanged.
import { isAppAuthored, type AppIdentity, type Authored } from './authorship.js';
import { markerFor, sameContent, stampMarker } from './marker.js';
import type { GitHubClient, RepoRef } from './types.js';

export interface IssueContent extends RepoRef {
  /** Marker key, e.g. `dashboard` or `alert/prod-eu/not-reporting`. */
  key: string;
  title: string;
  body: string;
  /** Labels put on the issue when it is opened; the first narrows the search. */
  labels: string[];
  /** The App: only issues it opened are found again (anyone can open one with its marker). */
  author: AppIdentity;
  /** Labels that say the issue's state: added where missing, removed where present (one call each, only then). */
  stateLabels?: { add: string[]; remove: string[] };
}

export type IssueResult =
  | { type: 'created'; number: number }
  | { type: 'updated'; number: number }
  | { type: 'reopened'; number: number }
  | { type: 'unchanged'; number: number };

interface ListedIssue extends Authored {
  number: number;
  state: string;
  title: string;
  body?: string | null;
  pull_request?: unknown;
  labels?: Array<string | { name?: string }>;
}

/** Adds and removes the issue's state labels where they differ; true when it called GitHub. */
async function syncStateLabels(octokit: GitHubClient, content: IssueContent, issue: ListedIssue): Promise<boolean> {
  const { owner, repo } = content;
  const has = new Set((issue.labels ?? []).map((label) => (typeof label === 'string' ? label : (label.name ?? ''))));
  const add = (content.stateLabels?.add ?? []).filter((label) => !has.has(label));
  const remove = (content.stateLabels?.remove ?? []).filter((label) => has.has(label));
  if (add.length) await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue.number, labels: add });
  for (const name of remove) await octokit.rest.issues.removeLabel({ owner, repo, issue_number: issue.number, name });
  return add.length + remove.length > 0;
}

export async function findIssueByMarker(
  octokit: GitHubClient,
  options: RepoRef & { key: string; labels: string[]; author: AppIdentity },
): Promise<ListedIssue | undefined> {
  const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
    owner: options.owner,
    repo: options.repo,
    state: 'all',
    per_page: 100,
    ...(options.labels.length > 0 ? { labels: options.labels[0] } : {}),
  });
  const mine = issues.filter(
    (issue) =>
      !issue.pull_request && isAppAuthored(issue as ListedIssue, options.author) && markerFor(issue.body, options.key),
  );
  // An open one wins; otherwise the newest closed one is reopened.
  return mine.find((issue) => issue.state === 'open') ?? mine.sort((a, b) => b.number - a.number)[0];
}

export async function upsertIssueByMarker(octokit: GitHubClient, content: IssueContent): Promise<IssueResult> {
  const { owner, repo } = content;
  const body = stampMarker(content.body, content.key);
  const existing = await findIssueByMarker(octokit, content);
  if (!existing) {
    const { data } = await octokit.rest.issues.create({
      owner,
      repo,
      title: content.title,
      body,
      labels: [...content.labels, ...(content.stateLabels?.add ?? [])],
    });
    return { type: 'created', number: data.number };
  }
  const open = existing.state === 'open';
  const relabelled = await syncStateLabels(octokit, content, existing);
  if (open && existing.title === content.title && sameContent(existing.body, body, content.key))
    return { type: relabelled ? 'updated' : 'unchanged', number: existing.number };
  await octokit.rest.issues.update({
    owner,
    repo,
    issue_number: existing.number,
    title: content.title,
    body,
    ...(open ? {} : { state: 'open' as const }),
  });
  return { type: open ? 'updated' : 'reopened', number: existing.number };
}

/** Comments why, then closes; an issue already closed gets neither. */
export async function closeIssue(
  octokit: GitHubClient,
  options: RepoRef & { number: number; comment: string; reason?: 'completed' | 'not_planned' },
): Promise<{ type: 'closed' } | { type: 'already-closed' }> {
  const { owner, repo } = options;
  const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: options.number });
  if (data.state === 'closed') return { type: 'already-closed' };
  await octokit.rest.issues.createComment({ owner, repo, issue_number: options.number, body: options.comment });
  await octokit.rest.issues.update({
    owner,
    repo,
    issue_number: options.number,
    state: 'closed',
    state_reason: options.reason ?? 'completed',
  });
  return { type: 'closed' };
}
