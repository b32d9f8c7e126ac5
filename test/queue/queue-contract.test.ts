// The JobQueue contract on both backends: serialized and coalesced per key, retried with backoff,
// and nothing lost when a queue stops mid-job and a new one starts on the same database.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/app/queue/jobs.js';
import {
  gate,
  OverlapMeter,
  postgresQueueFactory,
  recordingLogger,
  sleep,
  sqliteQueueFactory,
  waitFor,
  type QueueBed,
  type QueueFactory,
} from './support.js';

afterAll(() => postgresQueueFactory.dispose());

describe.each<QueueFactory>([sqliteQueueFactory, postgresQueueFactory])('$name queue', (factory) => {
  let bed: QueueBed;
  const started: JobQueue[] = [];
  const gates: Array<() => void> = [];

  beforeEach(async () => {
    bed = await factory.create();
  });
  afterEach(async () => {
    for (const open of gates.splice(0)) open();
    // Lets runs released just now settle before their database disappears.
    await sleep(100);
    for (const queue of started.splice(0)) await queue.stop(2_000);
    await bed.cleanup();
  });

  function track(queue: JobQueue): JobQueue {
    started.push(queue);
    return queue;
  }

  it('runs one job per key at a time while other keys run in parallel', async () => {
    const queue = track(bed.queue({ concurrency: 4 }));
    const meter = new OverlapMeter();
    const first = gate();
    gates.push(first.open);
    const runs: string[] = [];
    await queue.start({
      reconcile: async (payload, meta) => {
        meter.enter(meta.key);
        runs.push(`${meta.key}:${String(payload.n)}`);
        if (payload.n === 0) await first.promise;
        await sleep(5);
        meter.leave(meta.key);
      },
    });
    await queue.enqueue('reconcile', 'acme/repo#prod', { n: 0 });
    await waitFor(() => runs.length === 1, 'the first prod run');
    await queue.enqueue('reconcile', 'acme/repo#prod', { n: 1 });
    await queue.enqueue('reconcile', 'acme/repo#staging', { n: 2 });
    await queue.enqueue('reconcile', 'acme/repo#dev', { n: 3 });
    // staging and dev run although prod is busy; the second prod run waits.
    await waitFor(() => runs.includes('acme/repo#staging:2') && runs.includes('acme/repo#dev:3'), 'the other keys');
    expect(runs).not.toContain('acme/repo#prod:1');
    first.open();
    await waitFor(() => runs.includes('acme/repo#prod:1'), 'the second prod run');
    expect(Math.max(...meter.maxPerKey.values())).toBe(1);
    expect(meter.maxOverall).toBeGreaterThan(1);
  });

  it('coalesces a burst of enqueues behind a running job into one more run, on the newest payload', async () => {
    const queue = track(bed.queue({}));
    const first = gate();
    gates.push(first.open);
    const seen: unknown[] = [];
    await queue.start({
      reconcile: async (payload) => {
        seen.push(payload.snapshotId);
        if (payload.snapshotId === 'snp_0') await first.promise;
      },
    });
    await queue.enqueue('reconcile', 'acme/repo#prod', { snapshotId: 'snp_0' });
    await waitFor(() => seen.length === 1, 'the first run');
    for (let i = 1; i <= 10; i++) await queue.enqueue('reconcile', 'acme/repo#prod', { snapshotId: `snp_${i}` });
    first.open();
    await waitFor(() => seen.length === 2, 'the follow-up run');
    await waitFor(async () => (await bed.storedJobs()) === 0, 'the queue to drain');
    expect(seen).toEqual(['snp_0', 'snp_10']);
  });

  it('retries a failing job with growing delays, then succeeds', async () => {
    const logger = recordingLogger();
    const queue = track(bed.queue({ logger, retry: { maxAttempts: 5, initialDelayMs: 40, maxDelayMs: 1_000 } }));
    const attempts: number[] = [];
    await queue.start({
      reconcile: async (_payload, meta) => {
        attempts.push(meta.attempt);
        if (meta.attempt < 3) throw new Error(`GitHub answered 502 (attempt ${meta.attempt})`);
      },
    });
    await queue.enqueue('reconcile', 'acme/repo#prod', { reason: 'snapshot' });
    await waitFor(() => attempts.length === 3, 'three attempts');
    await waitFor(async () => (await bed.storedJobs()) === 0, 'the queue to drain');
    expect(attempts).toEqual([1, 2, 3]);
    const retries = logger.entries.filter((e) => e.message.startsWith('job failed; retrying'));
    expect(retries.map((e) => e.fields.retryInMs)).toEqual([40, 80]);
    expect(retries[0].fields.error).toMatch(/502/);
  });

  it('drops a job that keeps failing after the last attempt, with an error in the log', async () => {
    const logger = recordingLogger();
    const queue = track(bed.queue({ logger, retry: { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 20 } }));
    let runs = 0;
    await queue.start({
      reconcile: async () => {
        runs++;
        throw new Error('repository not installed');
      },
    });
    await queue.enqueue('reconcile', 'acme/repo#prod', {});
    await waitFor(() => logger.entries.some((e) => e.level === 'error' && /dropped/.test(e.message)), 'the drop');
    expect(runs).toBe(3);
    expect(await bed.storedJobs()).toBe(0);
    // The next snapshot enqueues it again, with a fresh attempt count.
    await queue.enqueue('reconcile', 'acme/repo#prod', {});
    await waitFor(() => runs === 6, 'the re-enqueued job to exhaust its attempts');
  });

  it('re-runs a job interrupted by a stop when a new queue starts on the same database', async () => {
    const stuck = gate();
    gates.push(stuck.open);
    const first = bed.queue({});
    let firstStarted = false;
    await first.start({
      reconcile: async () => {
        firstStarted = true;
        await stuck.promise;
      },
    });
    await first.enqueue('reconcile', 'acme/repo#prod', { snapshotId: 'snp_7' });
    await waitFor(() => firstStarted, 'the first run to begin');
    await first.stop(100);

    const second = track(bed.queue({}));
    const rerun: Array<{ payload: unknown; key: string }> = [];
    await second.start({ reconcile: async (payload, meta) => void rerun.push({ payload, key: meta.key }) });
    await waitFor(() => rerun.length === 1, 'the interrupted job to run again');
    expect(rerun[0]).toEqual({ payload: { snapshotId: 'snp_7' }, key: 'acme/repo#prod' });
    await waitFor(async () => (await bed.storedJobs()) === 0, 'the queue to drain');
  });

  it('gives up a job whose last attempt the process did not survive: told once with the reason, never run', async () => {
    const logger = recordingLogger();
    await bed.crashedRun('plan', 'acme/repo#pr-7', { repository: 'acme/repo', number: 7 }, 3);
    await bed.crashedRun('plan', 'acme/repo#pr-8', { repository: 'acme/repo', number: 8 }, 1);
    const queue = track(bed.queue({ logger, retry: { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 20 } }));
    const runs: Array<{ number: unknown; attempt: number }> = [];
    const givenUp: Array<{ payload: unknown; key: string; attempts: number; reason: string }> = [];
    await queue.start(
      { plan: async (payload, meta) => void runs.push({ number: payload.number, attempt: meta.attempt }) },
      { plan: async (payload, info) => void givenUp.push({ payload, ...info }) },
    );
    await waitFor(() => runs.length === 1 && givenUp.length === 1, 'the recovered run and the give-up');
    await waitFor(async () => (await bed.storedJobs()) === 0, 'the queue to drain');
    // The job cut off once runs again as its second attempt; the one cut off on its last is not run.
    expect(runs).toEqual([{ number: 8, attempt: 2 }]);
    expect(givenUp).toEqual([
      {
        payload: { repository: 'acme/repo', number: 7 },
        key: 'acme/repo#pr-7',
        attempts: 3,
        reason: expect.stringMatching(/^the App stopped while running it \(attempt 3: out of memory, or killed\)/),
      },
    ]);
    expect(
      logger.entries.some(
        (e) => e.level === 'error' && /given up after 3 attempts; recorded as failed/.test(e.message),
      ),
    ).toBe(true);
    await sleep(100);
    expect(runs).toHaveLength(1);
  });

  it('tells the give-up handler when a job fails its last attempt', async () => {
    const queue = track(bed.queue({ retry: { maxAttempts: 2, initialDelayMs: 10, maxDelayMs: 20 } }));
    const givenUp: Array<{ attempts: number; reason: string }> = [];
    await queue.start(
      {
        reconcile: async () => {
          throw new Error('GitHub answered 500');
        },
      },
      { reconcile: async (_payload, info) => void givenUp.push(info) },
    );
    await queue.enqueue('reconcile', 'acme/repo#prod', {});
    await waitFor(() => givenUp.length === 1, 'the give-up');
    expect(givenUp[0]).toMatchObject({ attempts: 2, reason: 'GitHub answered 500' });
  });

  it('keeps jobs enqueued before start and runs them once started', async () => {
    const queue = track(bed.queue({}));
    await queue.enqueue('reconcile', 'acme/repo#prod', { reason: 'startup' });
    const seen: unknown[] = [];
    await queue.start({ reconcile: async (payload) => void seen.push(payload.reason) });
    await waitFor(() => seen.length === 1, 'the job');
    expect(seen).toEqual(['startup']);
  });

  it('runs a scheduled job periodically', async () => {
    const queue = track(bed.queue({}));
    await queue.schedule('stale-agents', 0.1);
    let ticks = 0;
    await queue.start({ 'stale-agents': async () => void ticks++ });
    await waitFor(() => ticks >= 3, 'three ticks');
  });

  it('refuses to start a schedule that has no handler', async () => {
    const queue = bed.queue({});
    await queue.schedule('stale-agents', 60);
    await expect(queue.start({ reconcile: async () => undefined })).rejects.toThrow(
      /schedule "stale-agents" has no handler/,
    );
  });
});
