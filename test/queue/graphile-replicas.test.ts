// Several App replicas on one PostgreSQL database share the work: a key never runs on two at once,
// other keys are not held up, and every key ends on its newest payload.
import { afterEach, describe, expect, it } from 'vitest';
import { GraphileJobQueue } from '../../src/app/queue/graphile-queue.js';
import { dropSchema, PG_URL, uniqueSchema } from '../store/support.js';
import { OverlapMeter, recordingLogger, sleep, waitFor } from './support.js';

const schema = uniqueSchema('replicas');
const replicas: GraphileJobQueue[] = [];

function replica(): GraphileJobQueue {
  const queue = new GraphileJobQueue({
    connectionString: PG_URL,
    schema,
    pollIntervalMs: 50,
    concurrency: 4,
    logger: recordingLogger(),
  });
  replicas.push(queue);
  return queue;
}

afterEach(async () => {
  for (const queue of replicas.splice(0)) await queue.stop(5_000);
  await dropSchema(schema);
});

describe('graphile-worker queue across replicas', () => {
  it('runs one job per key at a time across two replicas, and finishes every key on its newest payload', async () => {
    const [a, b] = [replica(), replica()];
    const meter = new OverlapMeter();
    const lastSeen = new Map<string, number>();
    const runsBy = { a: 0, b: 0 };
    const handler = (who: 'a' | 'b') => async (payload: Record<string, unknown>, meta: { key: string }) => {
      meter.enter(meta.key);
      runsBy[who]++;
      await sleep(15);
      lastSeen.set(meta.key, payload.n as number);
      meter.leave(meta.key);
    };
    await a.start({ reconcile: handler('a') });
    await b.start({ reconcile: handler('b') });
    const keys = ['acme/repo#prod-eu', 'acme/repo#prod-us', 'acme/repo#staging'];
    for (let n = 0; n < 12; n++) {
      await Promise.all(keys.map((key, i) => ((n + i) % 2 === 0 ? a : b).enqueue('reconcile', key, { n })));
      await sleep(5);
    }
    await waitFor(() => keys.every((key) => lastSeen.get(key) === 11), 'every key to run on its newest payload');
    expect(Math.max(...meter.maxPerKey.values())).toBe(1);
    expect(meter.maxOverall).toBeGreaterThan(1);
    // Coalescing: far fewer runs than the 36 enqueues.
    expect(runsBy.a + runsBy.b).toBeLessThan(36);
  });

  it('runs a periodic job on one replica at a time when both schedule it', async () => {
    const [a, b] = [replica(), replica()];
    const meter = new OverlapMeter();
    let ticks = 0;
    const tick = async () => {
      meter.enter('stale-agents');
      ticks++;
      await sleep(30);
      meter.leave('stale-agents');
    };
    await a.schedule('stale-agents', 0.05);
    await b.schedule('stale-agents', 0.05);
    await a.start({ 'stale-agents': tick });
    await b.start({ 'stale-agents': tick });
    await waitFor(() => ticks >= 4, 'four ticks');
    expect(meter.maxPerKey.get('stale-agents')).toBe(1);
  });
});
