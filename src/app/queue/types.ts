// Options shared by both queue implementations: how failures are retried, how many jobs run at
// once, and where the queue reports what it did.
import type { AppLogger } from '../logger.js';

export interface RetryPolicy {
  /** Runs of one job before it is logged and dropped (the next snapshot enqueues it again). Default 5. */
  maxAttempts: number;
  /** Delay before the first retry; doubles per attempt. Default 5000 ms. */
  initialDelayMs: number;
  /** Ceiling of the delay. Default 300000 ms (5 minutes). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, initialDelayMs: 5_000, maxDelayMs: 300_000 };

export interface QueueOptions {
  logger: AppLogger;
  /** Default DEFAULT_RETRY. */
  retry?: Partial<RetryPolicy>;
  /** Jobs run at once by this process (never two of one key). Default 4. */
  concurrency?: number;
}

export type JobHandler = (
  payload: Record<string, unknown>,
  meta: { key: string; attempt: number; jobId: string },
) => Promise<void>;

/**
 * Told once when a job is given up: it failed on its last attempt, or the process stopped while
 * running it as many times (out of memory, killed), which retrying would only repeat. Records the
 * failure where a user sees it (the check run, the dashboard); its own failure is only logged.
 */
export type GiveUpHandler = (
  payload: Record<string, unknown>,
  info: { key: string; attempts: number; reason: string },
) => Promise<void>;

const INTERRUPTED = 'the App stopped while running it';

/** Why a job whose last run was cut off is not run again. */
export function interruptedReason(attempts: number): string {
  return `${INTERRUPTED} (attempt ${attempts}: out of memory, or killed); it is not run again until something new enqueues it`;
}

/** Whether a job was given up because the App did not survive its last run (not because it failed). */
export function wasInterrupted(reason: string): boolean {
  return reason.startsWith(INTERRUPTED);
}

/** Delay before run `attempt + 1`, after run `attempt` failed: exponential, capped. */
export function retryDelayMs(attempt: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempt - 1));
}

export function resolveRetry(retry: Partial<RetryPolicy> | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY, ...retry };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Calls the give-up handler of `queue`, if any, logging (never throwing) what goes wrong. */
export async function reportGiveUp(
  handlers: Record<string, GiveUpHandler>,
  logger: AppLogger,
  queue: string,
  payload: Record<string, unknown>,
  info: { key: string; attempts: number; reason: string },
): Promise<void> {
  logger.error(
    { queue, key: info.key, attempts: info.attempts, error: info.reason },
    `job given up after ${info.attempts} attempts; recorded as failed`,
  );
  const handler = handlers[queue];
  if (!handler) return;
  try {
    await handler(payload, info);
  } catch (error) {
    logger.error({ queue, key: info.key, error: errorMessage(error) }, 'could not record a given-up job');
  }
}

/** A schedule with no handler would enqueue jobs nobody runs: refuse it at start. */
export function assertSchedulesHaveHandlers(
  schedules: Map<string, number>,
  handlers: Record<string, JobHandler>,
): void {
  for (const name of schedules.keys()) {
    if (!handlers[name]) throw new Error(`schedule "${name}" has no handler; pass one under that name to start()`);
  }
}
