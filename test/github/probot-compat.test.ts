// The edge takes Probot's own octokit (installation-authenticated, with its retry and throttling
// plugins) pointed at the stand-in, exactly as the App will call it.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Probot, type Context } from 'probot';
import { memoryBlobCache, readTreeFiles, writeBranch, type GitHubClient } from '../../src/github/index.js';
import { GitHubStandIn } from '../support/github/index.js';

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

// Compile-time check: a handler passes `context.octokit` to the edge without a cast.
export const clientOf = (context: Context<'pull_request'>): GitHubClient => context.octokit;

describe("with Probot's octokit", () => {
  let standIn: GitHubStandIn;
  afterEach(async () => standIn?.close());

  it('authenticates as the installation, reads a tree and writes a branch', async () => {
    standIn = await GitHubStandIn.start();
    const base = standIn.seedRepository({
      owner: 'acme',
      repo: 'gitops',
      files: { 'clusters/prod/app.yaml': 'replicas: 3\n' },
    });
    const probot = new Probot({ appId: 1, privateKey, secret: 'test', baseUrl: standIn.baseUrl, logLevel: 'fatal' });
    const appOctokit = await probot.auth();
    const { data: installation } = await appOctokit.rest.apps.getRepoInstallation({ owner: 'acme', repo: 'gitops' });
    const octokit: GitHubClient = await probot.auth(installation.id);

    const read = await readTreeFiles(octokit, {
      owner: 'acme',
      repo: 'gitops',
      commitSha: base,
      paths: ['clusters/prod'],
      blobCache: memoryBlobCache(),
    });
    expect(read.files).toEqual(new Map([['clusters/prod/app.yaml', 'replicas: 3\n']]));
    const written = await writeBranch(octokit, {
      owner: 'acme',
      repo: 'gitops',
      branch: 'driftback/prod',
      prefix: 'driftback/',
      defaultBranch: 'main',
      baseCommitSha: base,
      files: new Map([['clusters/prod/app.yaml', 'replicas: 8\n']]),
      message: 'Codify drift\n',
    });
    expect(written.type).toBe('written');
    expect(standIn.readFile('acme', 'gitops', 'driftback/prod', 'clusters/prod/app.yaml')).toBe('replicas: 8\n');
    expect(standIn.callsTo('POST /app/installations/{installation_id}/access_tokens')).toBe(1);
  });
});
