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
  const { owner, repo } = content;
  const { data } = await octokit.rest.checks.listForRef({
    owner,
    repo,
    ref: content.headSha,
    check_name: content.name,
    filter: 'latest',
    per_page: 1,
  });
  const existing = data.check_runs[0] as ExistingRun | undefined;
  const annotations = content.annotations ?? [];
  if (existing && sameRun(existing, content, annotations.length)) return { type: 'unchanged', id: existing.id };
  const batches = chunk(annotations, ANNOTATIONS_PER_REQUEST);
  const output = (
    batch: CheckAnnotation[],
  ): { title: string; summary: string; text?: string; annotations: CheckAnnotation[] } => ({
    title: content.title,
    summary: content.summary,
    ...(content.text === undefined ? {} : { text: content.text }),
    annotations: batch,
  });
  const last = (index: number): boolean => index === batches.length - 1;
  const finish = (index: number): { status: 'completed'; conclusion: CheckConclusion } | { status: 'in_progress' } =>
    last(index) ? { status: 'completed', conclusion: content.conclusion } : { status: 'in_progress' };
  // Annotations only accumulate on a run; a run that already shows some is replaced by a new one
  // for the same commit (GitHub shows the newest), so old annotations do not linger.
  const reuse = existing && existing.output.annotations_count === 0;
  let id: number;
  if (reuse) {
    await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: existing.id,
      ...finish(0),
      output: output(batches[0]),
      ...extras(content),
    });
    id = existing.id;
  } else {
    const created = await octokit.rest.checks.create({
      owner,
      repo,
      name: content.name,
      head_sha: content.headSha,
      ...finish(0),
      output: output(batches[0]),
      ...extras(content),
    });
    id = created.data.id;
  }
  for (let index = 1; index < batches.length; index += 1) {
    await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: id,
      ...finish(index),
      output: output(batches[index]),
    });
  }
  return { type: reuse ? 'updated' : 'created', id, requests: batches.length };
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
