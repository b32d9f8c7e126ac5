// `driftback token`: prints the token the App accepts, refuses to run without the secret,
// and a token only ever verifies for the repository and cluster it was made for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveToken, verifyToken } from '../../src/core/token/index.js';
import { runCli } from './run-cli.js';

const env = { DRIFTBACK_TOKEN_SECRET: 'a-long-random-secret-for-tests-0123456789' };

describe('driftback token', () => {
  it('prints a token the App verifies for that repository and cluster', async () => {
    const result = await runCli(['token', '--repository', 'acme/platform-gitops', '--cluster', 'prod-eu'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const token = result.stdout.trim();
    expect(token).toMatch(/^dbk_[A-Za-z0-9_-]{43}$/);
    expect(verifyToken(env.DRIFTBACK_TOKEN_SECRET, token, 'acme/platform-gitops', 'prod-eu')).toBe(true);
  });

  it('refuses a token made for one cluster when presented for another', async () => {
    const { stdout } = await runCli(['token', '--repository', 'acme/platform-gitops', '--cluster', 'prod-eu'], { env });
    expect(verifyToken(env.DRIFTBACK_TOKEN_SECRET, stdout.trim(), 'acme/platform-gitops', 'prod-us')).toBe(false);
    expect(verifyToken(env.DRIFTBACK_TOKEN_SECRET, stdout.trim(), 'acme/other-repo', 'prod-eu')).toBe(false);
  });

  it('gives different clusters different tokens', async () => {
    const eu = await runCli(['token', '--repository', 'acme/platform-gitops', '--cluster', 'prod-eu'], { env });
    const us = await runCli(['token', '--repository', 'acme/platform-gitops', '--cluster', 'prod-us'], { env });
    expect(eu.stdout).not.toBe(us.stdout);
  });

  it.each([
    [[], {}, /DRIFTBACK_TOKEN_SECRET is not set/],
    [
      ['--repository', 'acme/x', '--cluster', 'prod-eu'],
      { DRIFTBACK_TOKEN_SECRET: 'short' },
      /is 5 bytes, under the 32 bytes.*openssl rand -hex 32/,
    ],
    [['--cluster', 'prod-eu'], env, /--repository is required/],
    [['--repository', 'acme/platform-gitops'], env, /--cluster is required/],
    [['--repository', 'not-a-repo', '--cluster', 'prod-eu'], env, /expected owner\/name/],
    [['--repository', 'acme/x', '--cluster', 'prod eu'], env, /--cluster prod eu: expected letters/],
    [['--repository', 'acme/x', '--cluster', 'prod-eu', '--bogus'], env, /Unknown option '--bogus'.*see --help/],
  ] as Array<[string[], NodeJS.ProcessEnv, RegExp]>)(
    'exits 2 with one line for %j',
    async (args, environment, message) => {
      const fullArgs = args.length === 0 ? ['--repository', 'acme/platform-gitops', '--cluster', 'prod-eu'] : args;
      const result = await runCli(['token', ...fullArgs], { env: environment });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    },
  );

  it('prints its usage with --help', async () => {
    const result = await runCli(['token', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--repository <owner/name>');
  });
});

describe('verifyToken', () => {
  const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,20}$/);
  const repository = fc.tuple(name, name).map(([owner, repo]) => `${owner}/${repo}`);
  const secret = fc.string({ minLength: 32, maxLength: 64 });

  it('accepts exactly the token derived for the same secret, repository and cluster', () => {
    fc.assert(
      fc.property(secret, repository, name, secret, repository, name, (s1, r1, c1, s2, r2, c2) => {
        const token = deriveToken(s1, r1, c1);
        expect(verifyToken(s1, token, r1, c1)).toBe(true);
        const same = s1 === s2 && r1.toLowerCase() === r2.toLowerCase() && c1 === c2;
        expect(verifyToken(s2, token, r2, c2)).toBe(same);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses any altered token', () => {
    fc.assert(
      fc.property(
        secret,
        repository,
        name,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
        (s, r, c, at, replacement) => {
          const token = deriveToken(s, r, c);
          const index = at % token.length;
          const altered = token.slice(0, index) + replacement + token.slice(index + 1);
          fc.pre(altered !== token);
          expect(verifyToken(s, altered, r, c)).toBe(false);
          expect(verifyToken(s, token + 'x', r, c)).toBe(false);
          expect(verifyToken(s, token.slice(0, -1), r, c)).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
