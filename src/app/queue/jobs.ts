// Every queue the App runs, its key and its payload: what enqueues and what handles a job agree on
// here. A job's payload is stored as JSON, so each handler checks it with its `is…Job` first.
import type { GiveUpHandler, JobHandler } from './types.js';

export interface JobQueue {
  /**
   * Enqueues work for a key (`<repository>#<cluster>`). Jobs for one key run one at a time, and
   * jobs that pile up behind a running one are coalesced into one run.
   */
  enqueue(queue: string, key: string, payload: Record<string, unknown>): Promise<void>;
  /**
   * Starts workers; `handler` throwing means retry with backoff. `givenUp[queue]` is told when a job
   * of that queue is given up (its last attempt failed, or its runs kept being cut off).
   */
  start(handlers: Record<string, JobHandler>, givenUp?: Record<string, GiveUpHandler>): Promise<void>;
  /** Stops taking jobs, waits for running ones (up to `timeoutMs`), hands the rest back. */
  stop(timeoutMs?: number): Promise<void>;
  /**
   * Runs the handler registered under `name` every `everySeconds`, once across all replicas.
   * Call before `start`.
   */
  schedule(name: string, everySeconds: number): Promise<void>;
}

/** A cluster's newest snapshot against the default branch's HEAD: the drift PR. */
export const RECONCILE_QUEUE = 'reconcile';

export interface ReconcileJob {
  repository: string;
  cluster: string;
  /** Snapshot that triggered the job; the job always works on the newest stored one. */
  snapshotId?: string;
  reason: 'snapshot' | 'push' | 'installation' | 'retry' | 'startup' | 'command';
}

/** One pending reconcile per cluster: a burst of snapshots and pushes reconciles once. */
export function reconcileKey(repository: string, cluster: string): string {
  return `${repository.toLowerCase()}#${cluster}`;
}

export function isReconcileJob(payload: Record<string, unknown>): payload is ReconcileJob & Record<string, unknown> {
  return typeof payload.repository === 'string' && typeof payload.cluster === 'string';
}

/** The plan comment and check run of one pull request. */
export const PLAN_QUEUE = 'plan';

export interface PlanJob {
  repository: string;
  number: number;
  reason: 'opened' | 'synchronize' | 'reopened' | 'ready_for_review' | 'rerequested' | 'snapshot' | 'command';
}

/** One pending plan per pull request: a burst of pushes plans once, on the newest head. */
export function planJobKey(repository: string, number: number): string {
  return `${repository.toLowerCase()}#pr-${number}`;
}

export function isPlanJob(payload: Record<string, unknown>): payload is PlanJob & Record<string, unknown> {
  return typeof payload.repository === 'string' && Number.isInteger(payload.number);
}

/** A `/driftback …` command from a pull request comment: answered with reactions and a reply. */
export const COMMAND_QUEUE = 'command';

export interface CommandJob {
  repository: string;
  /** The pull request, or the emergency switch issue (`issue`). */
  number: number;
  /** Set when the comment is on an issue (an emergency switch issue), not a pull request. */
  issue?: true;
  commentId: number;
  /** The comment's first line: the command (at most COMMAND_LINE_MAX characters). */
  line: string;
  /** Who wrote the comment. */
  login: string;
}

export const COMMAND_LINE_MAX = 1000;

/** One job per comment: a comment's command runs once. */
export function commandJobKey(repository: string, commentId: number): string {
  return `${repository.toLowerCase()}#comment-${commentId}`;
}

export function isCommandJob(payload: Record<string, unknown>): payload is CommandJob & Record<string, unknown> {
  return (
    typeof payload.repository === 'string' &&
    Number.isInteger(payload.number) &&
    Number.isInteger(payload.commentId) &&
    typeof payload.line === 'string' &&
    typeof payload.login === 'string'
  );
}

/** Scheduled: alert issues, the dashboard and plan refreshes of every repository with snapshots. */
export const ALERTS_QUEUE = 'alerts';
/** Scheduled: evicts cached blobs and listings no job used lately. */
export const MAINTENANCE_QUEUE = 'maintenance';
