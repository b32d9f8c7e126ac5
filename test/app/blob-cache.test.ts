// The blob cache keeps what renders read, nothing else, and lets go of what nobody reads: five
// 1 MiB pushes to a pull request leave nothing behind, and the maintenance job evicts blobs unused
// for two days.
import { afterEach, describe, expect, it } from 'vitest';
import { gitBlobSha } from '../../src/github/git-hash.js';
import { FILES, liveProd, SETTINGS } from './plan-scenario.js';
import {
  drain,
  openPullRequest,
  pullRequestPayload,
  sendWebhook,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';
import { sqliteOf } from '../support/sqlite-file.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function cached(harness: Harness): Map<string, number> {
  const rows = sqliteOf(harness.app.store).prepare('SELECT sha, LENGTH(text) AS size FROM blobs').all() as Array<{
    sha: string;
    size: number;
  }>;
  return new Map(rows.map((row) => [row.sha, row.size]));
}

describe('the blob cache', () => {
  it("keeps the manifests plans read, never a pull request's other files, and evicts what is unused for two days", async () => {
    const harness = (h = await startHarness(FILES));
    expect(await uploadSnapshot(harness, 'prod', liveProd(), '2026-12-02T11:55:00Z')).toBe(202);
    const branch = 'change/with-docs';
    const bigs: string[] = [];
    const pull = openPullRequest(harness, branch, { 'clusters/prod/settings.yaml': SETTINGS.replace('info', 'debug') });
    for (let i = 0; i < 5; i++) {
      const big = `# release notes ${i}\n${'x'.repeat(1024 * 1024)}\n`;
      bigs.push(gitBlobSha(big));
      const headSha = harness.standIn.pushCommit({
        owner: 'acme',
        repo: 'platform',
        branch,
        files: { 'docs/notes.md': big, 'clusters/prod/settings.yaml': SETTINGS.replace('info', `debug-${i}`) },
      });
      expect(
        await sendWebhook(harness, 'pull_request', pullRequestPayload('synchronize', { ...pull, headSha, branch })),
      ).toBe(200);
    }
    const blobs = cached(harness);
    for (const sha of bigs) expect(blobs.has(sha)).toBe(false);
    expect(Math.max(...blobs.values())).toBeLessThan(64 * 1024);
    // What the plans read is kept: the settings the PR changed, at its head and base.
    expect(blobs.has(gitBlobSha(SETTINGS))).toBe(true);
    expect(blobs.has(gitBlobSha(SETTINGS.replace('info', 'debug-4')))).toBe(true);

    // Two days later nobody read them: the hourly maintenance job evicts them all.
    harness.clock.now = new Date(harness.clock.now.getTime() + 49 * 60 * 60 * 1000);
    await harness.app.queue.enqueue('maintenance', 'maintenance', {});
    await drain(harness);
    expect(cached(harness).size).toBe(0);
  });
});
