// METRICS_TOKEN: an App shared by several organisations keeps /metrics (which names every
// installation's repositories and clusters) to whoever holds the token; unset, /metrics stays open.
import { afterEach, describe, expect, it } from 'vitest';
import { readAppEnv } from '../../src/app/env.js';
import { drain, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { appliedObjects, gitopsRepository, snapshotOf } from './live.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const TOKEN = 'metrics-token-0123456789abcdef';

async function scrape(
  h: AppHarness,
  authorization?: string,
): Promise<{ status: number; text: string; challenge: string | null }> {
  const response = await fetch(`${h.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, text: await response.text(), challenge: response.headers.get('www-authenticate') };
}

describe('METRICS_TOKEN', () => {
  it('is read from the environment', () => {
    expect(readAppEnv({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
  });

  it('when set, /metrics answers 401 without it or with another token, and the series with it', async () => {
    const files = gitopsRepository();
    harness = await startAppHarness({ files, env: { metricsToken: TOKEN } });
    await uploadSnapshot(harness, snapshotOf(harness.repository, appliedObjects(files), '2026-12-02T03:05:00Z'));
    await drain(harness);
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
      const refused = await scrape(harness, authorization);
      expect(refused.status).toBe(401);
      expect(refused.challenge).toMatch(/^Bearer/);
      expect(JSON.parse(refused.text).error).toMatch(/METRICS_TOKEN as Authorization: Bearer <token>/);
      expect(refused.text).not.toContain(harness.repository);
    }
    const allowed = await scrape(harness, `Bearer ${TOKEN}`);
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain(`driftback_snapshot_age_seconds{repository="${harness.repository}"`);
  });

  it('when unset, /metrics stays open', async () => {
    harness = await startAppHarness({ files: gitopsRepository() });
    expect((await scrape(harness)).status).toBe(200);
  });
});
