// The App's credentials as Probot documents them: the key file named by PRIVATE_KEY_PATH is read
// and used; a registered App without its webhook secret, or with a guessable upload secret, does not
// start; and a pull_request.closed webhook records a decision only for what GitHub confirms.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot, Server } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import { readAppEnv } from '../../src/app/env.js';
import { startDriftback } from '../../src/app/start.js';
import {
  drain,
  pullRequestClosedPayload,
  sendWebhook,
  startAppHarness,
  TOKEN_SECRET,
  uploadSnapshot,
  WEBHOOK_SECRET,
  type AppHarness,
} from '../support/app.js';
import { appliedObjects, CLUSTER, gitopsRepository, scaled, snapshotOf } from './live.js';

const { privateKey: pem } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

let harness: AppHarness | undefined;

/** frontend scaled to 5 by hand in the cluster `files` deploy, uploaded and reconciled: the pull requests then. */
async function pullsAfterScalingFrontend(app: AppHarness, files: Record<string, string>) {
  const snapshot = snapshotOf(app.repository, scaled(appliedObjects(files), 'frontend', 5), '2026-12-02T03:05:00Z');
  expect((await uploadSnapshot(app, snapshot)).status).toBe(202);
  await drain(app);
  return [...app.standIn.state.repo(app.owner, app.repo).issues.values()].filter((issue) => issue.pull);
}

const dirs: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'driftback-credentials-'));
  dirs.push(dir);
  return dir;
}

const registered = { APP_ID: '12345', WEBHOOK_SECRET, DRIFTBACK_TOKEN_SECRET: TOKEN_SECRET };

describe('PRIVATE_KEY_PATH', () => {
  it('is read (the .pem GitHub hands out) and the App authenticates with it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'driftback.2026-12-01.private-key.pem'), pem);
    const env = readAppEnv({ ...registered, PRIVATE_KEY_PATH: 'driftback.2026-12-01.private-key.pem' }, dir);
    expect(env.privateKey?.trim()).toBe(pem.trim());

    const files = gitopsRepository();
    harness = await startAppHarness({ files, env: { privateKey: env.privateKey } });
    const pulls = await pullsAfterScalingFrontend(harness, files);
    expect(pulls).toHaveLength(1);
  });

  it.each<[{ PRIVATE_KEY_PATH?: string }, RegExp]>([
    [
      { PRIVATE_KEY_PATH: 'missing.pem' },
      /PRIVATE_KEY_PATH names .*missing\.pem, which does not exist: point it at the \.pem file/,
    ],
    [
      { PRIVATE_KEY_PATH: 'garbage.pem' },
      /the private key from PRIVATE_KEY_PATH \(garbage\.pem\) is not a PEM private key/,
    ],
    [{}, /APP_ID is set but no private key is: set PRIVATE_KEY_PATH/],
  ])('refuses %j with a message that says what to change', (extra, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'garbage.pem'), 'not a key\n');
    const env = { ...registered, ...extra };
    // With no variable, the single *.pem of the working directory is Probot's fallback: none here.
    expect(() => readAppEnv(env, extra.PRIVATE_KEY_PATH ? dir : tempDir())).toThrow(message);
  });

  it('PRIVATE_KEY wins over PRIVATE_KEY_PATH, with escaped newlines as Probot accepts them', () => {
    const env = readAppEnv(
      { ...registered, PRIVATE_KEY: pem.replace(/\n/g, '\\n'), PRIVATE_KEY_PATH: 'ignored.pem' },
      tempDir(),
    );
    expect(env.privateKey?.trim()).toBe(pem.trim());
  });
});

describe('WEBHOOK_SECRET', () => {
  it("is required once APP_ID is set: Probot's default secret is public", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'app.pem'), pem);
    expect(() =>
      readAppEnv({ APP_ID: '12345', PRIVATE_KEY_PATH: 'app.pem', DRIFTBACK_TOKEN_SECRET: TOKEN_SECRET }, dir),
    ).toThrow(
      /WEBHOOK_SECRET: APP_ID is set but WEBHOOK_SECRET is not: set it to the webhook secret of the App settings page/,
    );
    const env = readAppEnv({ ...registered, PRIVATE_KEY_PATH: 'app.pem', DATA_DIR: dir }, dir);
    await expect(startDriftback({ ...env, webhookSecret: undefined, port: 0 }, { Probot, Server })).rejects.toThrow(
      /WEBHOOK_SECRET is not/,
    );
  });

  it("before registration (no APP_ID), a webhook signed with Probot's public default secret is refused", async () => {
    harness = await startAppHarness({
      files: gitopsRepository(),
      env: { appId: undefined, privateKey: undefined, webhookSecret: undefined },
    });
    expect(
      await sendWebhook(
        harness,
        'pull_request',
        pullRequestClosedPayload(harness, 1, `driftback/${CLUSTER}`, false),
        'development',
      ),
    ).toBe(400);
  });
});

describe('DRIFTBACK_TOKEN_SECRET', () => {
  it.each(['short', 'x'.repeat(31)])('refuses %s (under 32 bytes) and says how to make one', (secret) => {
    expect(() => readAppEnv({ DRIFTBACK_TOKEN_SECRET: secret })).toThrow(
      /DRIFTBACK_TOKEN_SECRET: .* under the 32 bytes .*openssl rand -hex 32/,
    );
  });

  it('accepts 32 bytes', () => {
    expect(readAppEnv({ DRIFTBACK_TOKEN_SECRET: 'x'.repeat(32) }).tokenSecret).toBe('x'.repeat(32));
  });
});

describe('a pull_request.closed webhook', () => {
  it('records a decline only when GitHub confirms the drift PR is closed unmerged', async () => {
    const files = gitopsRepository();
    harness = await startAppHarness({ files });
    const live = appliedObjects(files);
    const [pr] = await pullsAfterScalingFrontend(harness, files);
    // A delivery that says "closed" about a PR GitHub shows open (a replay, a forgery) changes nothing.
    expect(
      await sendWebhook(
        harness,
        'pull_request',
        pullRequestClosedPayload(harness, pr.number, `driftback/${CLUSTER}`, false),
      ),
    ).toBe(200);
    expect((await harness.app.store.declinedFingerprints(harness.repository, CLUSTER)).size).toBe(0);
    expect(pr.state).toBe('open');
    await uploadSnapshot(harness, snapshotOf(harness.repository, scaled(live, 'frontend', 5), '2026-12-02T03:15:00Z'));
    await drain(harness);
    expect(pr.state).toBe('open');
    expect(harness.standIn.headOf(harness.owner, harness.repo, `driftback/${CLUSTER}`)).toBeDefined();
  });
});
