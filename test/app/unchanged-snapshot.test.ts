// An unchanged cluster costs GitHub nothing: a new snapshot with the same live state (only its
// capture time differs), its reconcile and the scheduled watch after it make no GitHub call at all,
// reads included, while a snapshot whose live state changed refreshes what depends on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES, deployment, liveProd } from './plan-scenario.js';
import {
  commentsOn,
  drain,
  issuesTitled,
  proposePullRequest,
  runWatch,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';

let h: Harness;
const at = (time: string): void => void (h.clock.now = new Date(time));

beforeAll(async () => {
  h = await startHarness(FILES, '2026-12-02T12:00:00Z');
}, 60_000);
afterAll(async () => h?.close());

describe('a snapshot that brings nothing new', () => {
  it('costs 0 GitHub calls through reconcile and watch; a changed live state refreshes the plan', async () => {
    expect(await uploadSnapshot(h, 'prod', liveProd(), '2026-12-02T12:00:00Z')).toBe(202);
    await drain(h);
    await runWatch(h);
    const pull = await proposePullRequest(h, 'scale-api', {
      'clusters/prod/api.yaml': deployment('api', 'registry.example/shop/api:1.4.0', 3),
    });
    await runWatch(h);
    const dashboard = issuesTitled(h, 'driftback dashboard')[0].body;
    const plan = commentsOn(h, pull.number).join('\n');
    expect(plan).toContain('api');

    for (const minute of [5, 10, 15]) {
      at(`2026-12-02T12:${String(minute).padStart(2, '0')}:30Z`);
      h.standIn.resetCalls();
      const capturedAt = `2026-12-02T12:${String(minute).padStart(2, '0')}:00Z`;
      expect(await uploadSnapshot(h, 'prod', liveProd(), capturedAt)).toBe(202);
      await drain(h);
      await runWatch(h);
      await drain(h);
      expect({ minute, ...h.standIn.calls() }).toEqual({
        minute,
        total: 0,
        reads: 0,
        writes: 0,
        faults: 0,
        byRoute: {},
      });
    }
    expect(issuesTitled(h, 'driftback dashboard')[0].body).toBe(dashboard);
    expect(commentsOn(h, pull.number).join('\n')).toBe(plan);

    // Someone scales the Deployment by hand: the plan of the open pull request is refreshed.
    at('2026-12-02T12:20:30Z');
    const scaled = liveProd().map((item) =>
      item.kind === 'Deployment' && item.metadata?.name === 'api'
        ? { ...item, spec: { ...(item.spec as object), replicas: 5 } }
        : item,
    );
    expect(await uploadSnapshot(h, 'prod', scaled, '2026-12-02T12:20:00Z')).toBe(202);
    await drain(h);
    await runWatch(h);
    await drain(h);
    const refreshed = commentsOn(h, pull.number).join('\n');
    expect(refreshed).not.toBe(plan);
    expect(refreshed).toContain('-  replicas: 5\n+  replicas: 3');
    expect(plan).not.toContain('replicas: 5');
  });
});
