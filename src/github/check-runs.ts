// One check run per name and head commit: created, or updated in place; annotations go 50 per
// request (GitHub's limit), the conclusion with the last batch.
import type { GitHubClient, RepoRef } from './types.js';

export type CheckConclusion =
  'success' | 'neutral' | 'failure' | 'cancelled' | 'skipped' | 'action_required' | 'timed_out';

export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
  raw_details?: string;
}

export interface CheckRunContent extends RepoRef {
  name: string;
  headSha: string;
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  text?: string;
  annotations?: CheckAnnotation[];
  detailsUrl?: string;
  externalId?: string;
}

export type CheckRunResult =
  | { type: 'created'; id: number; requests: number }
  | { type: 'updated'; id: number; requests: number }
  | { type: 'unchanged'; id: number };

export const ANNOTATIONS_PER_REQUEST = 50;

interface ExistingRun {
  id: number;
  conclusion: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations_count: number };
}

export async function createOrUpdateCheckRun(octokit: GitHubClient, content: CheckRunContent): Promise<CheckRunResult> {
  const existing = await latestRun(octokit, content);
  const annotations = content.annotations ?? [];
  if (existing && sameRun(existing, content, annotations.length)) return { type: 'unchanged', id: existing.id };
  const batches = chunk(annotations, ANNOTATIONS_PER_REQUEST);
  const first = { ...finish(content, batches, 0), output: output(content, batches[0]!), ...extras(content) };
  // Annotations only accumulate on a run; a run that already shows some is replaced by a new one
  // for the same commit (GitHub shows the newest), so old annotations do not linger.
  const reuse = existing && existing.output.annotations_count === 0;
  const { owner, repo } = content;
  const id = reuse
    ? await updateRun(octokit, content, existing.id, first)
    : (await octokit.rest.checks.create({ owner, repo, name: content.name, head_sha: content.headSha, ...first })).data
        .id;
  for (let index = 1; index < batches.length; index += 1) {
    const next = { ...finish(content, batches, index), output: output(content, batches[index]!) };
    await octokit.rest.checks.update({ owner, repo, check_run_id: id, ...next });
  }
  return { type: reuse ? 'updated' : 'created', id, requests: batches.length };
}

async function updateRun(
  octokit: GitHubClient,
  { owner, repo }: RepoRef,
  id: number,
  body: Omit<Parameters<GitHubClient['rest']['checks']['update']>[0] & object, 'owner' | 'repo' | 'check_run_id'>,
): Promise<number> {
  await octokit.rest.checks.update({ owner, repo, check_run_id: id, ...body });
  return id;
}

/** The newest run of this name on the head commit, if any. */
async function latestRun(octokit: GitHubClient, content: CheckRunContent): Promise<ExistingRun | undefined> {
  const { owner, repo } = content;
  const { data } = await octokit.rest.checks.listForRef({
    owner,
    repo,
    ref: content.headSha,
    check_name: content.name,
    filter: 'latest',
    per_page: 1,
  });
  return data.check_runs[0] as ExistingRun | undefined;
}

function output(
  content: CheckRunContent,
  batch: CheckAnnotation[],
): { title: string; summary: string; text?: string; annotations: CheckAnnotation[] } {
  return {
    title: content.title,
    summary: content.summary,
    ...(content.text === undefined ? {} : { text: content.text }),
    annotations: batch,
  };
}

/** The conclusion comes with the last batch of annotations; the run is in progress until then. */
function finish(
  content: CheckRunContent,
  batches: readonly unknown[],
  index: number,
): { status: 'completed'; conclusion: CheckConclusion } | { status: 'in_progress' } {
  return index === batches.length - 1
    ? { status: 'completed', conclusion: content.conclusion }
    : { status: 'in_progress' };
}

function extras(content: CheckRunContent): { details_url?: string; external_id?: string } {
  return {
    ...(content.detailsUrl ? { details_url: content.detailsUrl } : {}),
    ...(content.externalId ? { external_id: content.externalId } : {}),
  };
}

function sameRun(existing: ExistingRun, content: CheckRunContent, annotationCount: number): boolean {
  return (
    existing.conclusion === content.conclusion &&
    existing.output.title === content.title &&
    existing.output.summary === content.summary &&
    (existing.output.text ?? undefined) === content.text &&
    existing.output.annotations_count === annotationCount
  );
}

function chunk<T>(items: T[], size: number): T[][] {
  if (items.length === 0) return [[]];
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
