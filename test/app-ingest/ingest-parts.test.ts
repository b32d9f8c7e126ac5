import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createByteBudget } from '../../src/app/ingest/semaphore.js';
import { expectedSize, inflateBody } from '../../src/app/ingest/read-body.js';
import { createRateLimiter } from '../../src/app/ingest/rate-limit.js';
import { clientAddress } from '../../src/app/ingest/authenticate.js';

describe('ingest memory budget', () => {
  it('runs small uploads side by side but a large one alone, in arrival order', async () => {
    const budget = createByteBudget(100);
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const job = (name: string, weight: number, wait?: Promise<void>) =>
      budget.run(weight, async () => {
        events.push(`start ${name}`);
        await wait;
        events.push(`end ${name}`);
      });
    const a = job('a', 40, gate);
    const b = job('b', 40);
    const big = job('big', 500);
    const c = job('c', 10);
    await b;
    expect(events).toEqual(['start a', 'start b', 'end b']);
    release();
    await Promise.all([a, big, c]);
    expect(events).toEqual(['start a', 'start b', 'end b', 'end a', 'start big', 'end big', 'start c', 'end c']);
  });

  it('honours a cap on concurrent jobs as well', async () => {
    const budget = createByteBudget(1_000, 1);
    let running = 0;
    let most = 0;
    await Promise.all(
      [1, 2, 3].map(() =>
        budget.run(1, async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
  });
});

describe('inflating an upload', () => {
  it('reads the expected size from the gzip trailer and inflates under the cap', async () => {
    const text = Buffer.from('{"a":"' + 'x'.repeat(10_000) + '"}');
    const raw = gzipSync(text);
    expect(expectedSize({ raw, gzip: true })).toBe(Math.max(text.length, raw.length * 16));
    expect(await inflateBody({ raw, gzip: true }, 1_000_000)).toEqual({ type: 'ok', body: text });
  });

  it('stops a gzip bomb at the cap instead of inflating it', async () => {
    const raw = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    expect(await inflateBody({ raw, gzip: true }, 1024 * 1024)).toEqual({ type: 'too-large', limit: 1024 * 1024 });
  });

  it('says a truncated stream is corrupt', async () => {
    const raw = gzipSync(Buffer.from('{"a":1}'.repeat(1000)));
    const result = await inflateBody({ raw: raw.subarray(0, raw.length - 20), gzip: true }, 1_000_000);
    expect(result.type).toBe('bad-encoding');
  });
});

describe('per-cluster rate limit', () => {
  it('allows a burst, then asks to retry after the refill time', () => {
    const limiter = createRateLimiter(6, 2);
    expect(limiter.take('a#prod', 0)).toEqual({ ok: true });
    expect(limiter.take('a#prod', 0)).toEqual({ ok: true });
    expect(limiter.take('a#prod', 0)).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(limiter.take('a#other', 0)).toEqual({ ok: true });
    expect(limiter.take('a#prod', 10_000)).toEqual({ ok: true });
  });
});

describe('the client address behind proxies (DRIFTBACK_TRUST_PROXY)', () => {
  const request = (forwardedFor: string | undefined) =>
    ({
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      socket: { remoteAddress: '10.0.0.9' },
    }) as unknown as IncomingMessage;

  // Express's numeric `trust proxy`: "trust the nth hop from the front-facing proxy server as the
  // client" (expressjs.com/en/guide/behind-proxies.html); each proxy appends its peer's address.
  it.each([
    { hops: 0, header: '198.51.100.1, 203.0.113.7', address: '10.0.0.9', why: 'no proxy trusted: the TCP peer' },
    { hops: 1, header: '198.51.100.1, 203.0.113.7', address: '203.0.113.7', why: 'what the one proxy appended' },
    { hops: 2, header: '198.51.100.1, 203.0.113.7, 10.1.0.4', address: '203.0.113.7', why: 'two proxies' },
    { hops: 2, header: '203.0.113.7', address: '203.0.113.7', why: 'fewer entries than hops: the left-most' },
    { hops: 1, header: undefined, address: '10.0.0.9', why: 'no header: the TCP peer' },
  ])('$hops hop(s), X-Forwarded-For "$header": $address ($why)', ({ hops, header, address }) => {
    expect(clientAddress(request(header), hops)).toBe(address);
  });
});
