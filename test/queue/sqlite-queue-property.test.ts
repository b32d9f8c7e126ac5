// Random bursts of enqueues and failures against the SQLite queue: whatever the interleaving, a key
// never runs twice at once, and every key's last run works on the last payload enqueued for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SqliteJobQueue } from '../../src/app/queue/sqlite-queue.js';
import { sqliteFile } from '../support/sqlite-file.js';
import { OverlapMeter, recordingLogger, sleep, waitFor } from './support.js';

const step = fc.record({
  key: fc.integer({ min: 0, max: 3 }),
  failFirst: fc.boolean(),
  pauseMs: fc.integer({ min: 0, max: 3 }),
});

describe('SQLite queue under random bursts', () => {
  it('serializes per key and ends every key on its newest payload', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const dir = mkdtempSync(join(tmpdir(), 'driftback-queue-property-'));
        const file = join(dir, 'queue.sqlite');
        const queue = new SqliteJobQueue({
          file,
          logger: recordingLogger(),
          concurrency: 3,
          retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 },
        });
        const meter = new OverlapMeter();
        const lastRun = new Map<string, number>();
        try {
          await queue.start({
            reconcile: async (payload, meta) => {
              meter.enter(meta.key);
              await sleep(1);
              meter.leave(meta.key);
              if (payload.failFirst && meta.attempt === 1) throw new Error('transient');
              lastRun.set(meta.key, payload.n as number);
            },
          });
          const lastEnqueued = new Map<string, number>();
          for (const [n, s] of steps.entries()) {
            const key = `acme/repo#c${s.key}`;
            await queue.enqueue('reconcile', key, { n, failFirst: s.failFirst });
            lastEnqueued.set(key, n);
            if (s.pauseMs) await sleep(s.pauseMs);
          }
          await waitFor(
            () => (sqliteFile(file).prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n === 0,
            'the queue to drain',
          );
          expect(Math.max(...meter.maxPerKey.values())).toBe(1);
          expect(lastRun).toEqual(lastEnqueued);
        } finally {
          await queue.stop(1_000);
          sqliteFile(file).close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
