// `driftback reconcile --dry-run --state FILE`: what the App recorded of a cluster before this
// snapshot (its drift branches and their pull requests, its emergency records, its last security
// check) and the HEAD it builds on, so the dry run decides as a later reconcile, not a first one. The
// App's own cluster record (what its store holds for the cluster) is a valid file: fields this
// command does not read are ignored.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { PriorBranch, SecurityCheckRecord } from '../core/decide/index.js';
import { CliError } from './io.js';

const priorStateSchema = z.object({
  /** The default branch's HEAD the App builds drift branches on and writes the security check on. */
  headSha: z.string().min(1).optional(),
  /** Branch → the App's drift branch: its open pull request, and someone else's commits on it. */
  branches: z
    .record(
      z.string(),
      z.object({
        pullRequest: z.number().int().positive().optional(),
        foreign: z.object({ commits: z.array(z.string()), since: z.string() }).optional(),
      }),
    )
    .default({}),
  /** The `driftback / security (<cluster>)` check run last written: on which commit, what it said. */
  securityCheck: z
    .object({ headSha: z.string(), conclusion: z.enum(['success', 'failure']), hash: z.string() })
    .optional(),
  /** Suspension id → the emergency pull request followed for it. */
  emergencies: z.record(z.string(), z.object({ pullRequest: z.number().int().positive() })).optional(),
});

export interface PriorState {
  headSha?: string;
  branches: Record<string, PriorBranch>;
  securityCheck?: SecurityCheckRecord;
  emergencies?: Record<string, { pullRequest: number }>;
}

/** Reads and checks `--state`: a clear error naming the field to change when it does not fit. */
export async function readPriorState(path: string): Promise<PriorState> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`--state ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`--state ${path}: not JSON (${(error as Error).message})`);
  }
  const parsed = priorStateSchema.safeParse(json);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new CliError(`--state ${path}: ${issue!.path.join('.') || '(top)'}: ${issue!.message}`);
  }
  const { branches, ...rest } = parsed.data;
  const named = Object.entries(branches).map(([branch, before]) => [branch, { ...before, branch }] as const);
  return { ...rest, branches: Object.fromEntries(named) };
}
