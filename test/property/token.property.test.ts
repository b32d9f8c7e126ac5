// Upload tokens: the token derived for (repository, cluster) is accepted there and nowhere else, and
// any other presented string is refused, whatever it looks like.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveToken, verifyToken } from '../../src/core/token/index.js';

const secret = fc.string({ minLength: 32, maxLength: 64 });
const repository = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/), fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/))
  .map(([owner, name]) => `${owner}/${name}`);
const cluster = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,30}$/);

describe('upload token verification', () => {
  it('the derived token is accepted, also when the repository is spelled in another case', () => {
    fc.assert(
      fc.property(secret, repository, cluster, (s, repo, name) => {
        const token = deriveToken(s, repo, name);
        expect(verifyToken(s, token, repo, name)).toBe(true);
        expect(verifyToken(s, token, repo.toUpperCase(), name)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('a token is refused for another cluster, another repository or under another secret', () => {
    fc.assert(
      fc.property(secret, secret, repository, repository, cluster, cluster, (s1, s2, repo1, repo2, c1, c2) => {
        const token = deriveToken(s1, repo1, c1);
        if (c1 !== c2) expect(verifyToken(s1, token, repo1, c2)).toBe(false);
        if (repo1.toLowerCase() !== repo2.toLowerCase()) expect(verifyToken(s1, token, repo2, c1)).toBe(false);
        if (s1 !== s2) expect(verifyToken(s2, token, repo1, c1)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('any other presented string is refused: random text, the token changed in one character, cut or extended', () => {
    fc.assert(
      fc.property(
        secret,
        repository,
        cluster,
        fc.string({ maxLength: 80 }),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
        (s, repo, name, random, at, char) => {
          const token = deriveToken(s, repo, name);
          const i = at % token.length;
          const changed = token.slice(0, i) + char + token.slice(i + 1);
          for (const presented of [random, changed, token.slice(0, i), token + char, '', token.toUpperCase()]) {
            expect(verifyToken(s, presented, repo, name)).toBe(presented === token);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a secret under 32 bytes accepts nothing and derives nothing, and says how to make one', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 31 }), repository, cluster, (weak, repo, name) => {
        fc.pre(Buffer.byteLength(weak) < 32);
        expect(() => deriveToken(weak, repo, name)).toThrow(
          /DRIFTBACK_TOKEN_SECRET is \d+ bytes.*openssl rand -hex 32/,
        );
        expect(verifyToken(weak, 'dbk_' + 'A'.repeat(43), repo, name)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('an empty secret accepts nothing and derives nothing', () => {
    fc.assert(
      fc.property(repository, cluster, fc.string(), (repo, name, presented) => {
        expect(verifyToken('', presented, repo, name)).toBe(false);
        expect(() => deriveToken('', repo, name)).toThrow(/DRIFTBACK_TOKEN_SECRET is empty/);
      }),
      { numRuns: 200 },
    );
  });
});
