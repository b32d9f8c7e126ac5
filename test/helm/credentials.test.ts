// The App's credentials for private chart repositories: a YAML list of URL prefixes with a username and
// password or a token; the longest prefix that covers a chart's URL is its entry; a file that cannot be
// used says what to change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authorization, credentialFor, loadChartCredentials } from '../../src/helm/credentials.js';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'credentials-')), 'chart-credentials.yaml');
  writeFileSync(path, text);
  return path;
}

describe('chart repository credentials', () => {
  const credentials = loadChartCredentials(
    file(`- url: oci://ghcr.io/acme/
  username: acme-bot
  password: pat-1
- url: oci://ghcr.io/acme/private
  token: tok-2
- url: https://charts.example.com/private
  username: ci
  password: pw
`),
  );

  it('picks the longest prefix that covers the URL, at a path boundary', () => {
    expect(credentialFor('oci://ghcr.io/acme/charts/webapp', credentials)?.username).toBe('acme-bot');
    expect(credentialFor('oci://ghcr.io/acme/private/webapp', credentials)?.token).toBe('tok-2');
    expect(credentialFor('oci://ghcr.io/acmecorp/webapp', credentials)).toBeUndefined();
    expect(credentialFor('https://charts.example.com/private', credentials)?.username).toBe('ci');
    expect(credentialFor('https://charts.example.com/public', credentials)).toBeUndefined();
    expect(credentialFor('http://charts.example.com/private', credentials)).toBeUndefined();
  });

  it('gives Basic for a username and password, Bearer for a token', () => {
    const basic = credentialFor('oci://ghcr.io/acme/charts', credentials)!;
    expect(authorization(basic)).toBe(`Basic ${Buffer.from('acme-bot:pat-1').toString('base64')}`);
    expect(authorization(credentialFor('oci://ghcr.io/acme/private/x', credentials)!)).toBe('Bearer tok-2');
  });

  it('says what to change in a file it cannot use, without printing a secret', () => {
    const bad = (text: string) => loadChartCredentials(file(text));
    expect(bad('url: oci://ghcr.io\n')).toEqual({
      problem: expect.stringMatching(
        /: a list of \{url, username, password\}, \{url, token\} or \{url, identityToken\}$/,
      ),
    });
    expect(bad('- url: ghcr.io/acme\n  token: secret-1\n')).toEqual({
      problem: expect.stringMatching(/: entry 1: url must be an http\(s\):\/\/ or oci:\/\/ URL prefix$/),
    });
    expect(bad('- url: oci://ghcr.io\n  username: a\n')).toEqual({
      problem: expect.stringMatching(
        /: entry 1 \(oci:\/\/ghcr\.io\): give username and password, token, or identityToken$/,
      ),
    });
    expect(bad('- url: oci://ghcr.io\n  token: 12345\n')).toEqual({
      problem: expect.stringMatching(/: entry 1 \(oci:\/\/ghcr\.io\): token must be a string$/),
    });
    expect(loadChartCredentials('/nonexistent/credentials.yaml')).toEqual({
      problem: 'DRIFTBACK_CHART_CREDENTIALS /nonexistent/credentials.yaml cannot be read (ENOENT)',
    });
    const problem = bad('- url: ghcr.io\n  password: secret-1\n');
    expect(JSON.stringify(problem)).not.toContain('secret-1');
  });

  it('reads an identity token given as the password of the username <token>, or as identityToken', () => {
    const read = loadChartCredentials(
      file(`- url: oci://myregistry.azurecr.io/helm
  username: <token>
  password: refresh-1
- url: oci://europe-docker.pkg.dev/acme
  identityToken: refresh-2
`),
    );
    const docker = credentialFor('oci://myregistry.azurecr.io/helm/webapp', read)!;
    expect(docker.identityToken).toBe('refresh-1');
    const alone = credentialFor('oci://europe-docker.pkg.dev/acme/webapp', read)!;
    expect(alone.identityToken).toBe('refresh-2');
    // A realm that refuses the OAuth2 exchange gets the identity token as Basic credentials of `<token>`.
    expect(authorization(docker)).toBe(`Basic ${Buffer.from('<token>:refresh-1').toString('base64')}`);
    expect(authorization(alone)).toBe(`Basic ${Buffer.from('<token>:refresh-2').toString('base64')}`);
  });

  it('keys Docker Hub once: an entry for docker.io or registry-1.docker.io covers both spellings', () => {
    const read = loadChartCredentials(
      file(`- url: oci://docker.io/acme
  token: hub-1
- url: oci://registry-1.docker.io/bitnamicharts
  token: hub-2
`),
    );
    expect(credentialFor('oci://registry-1.docker.io/acme/webapp', read)?.token).toBe('hub-1');
    expect(credentialFor('oci://docker.io/acme/webapp', read)?.token).toBe('hub-1');
    expect(credentialFor('oci://docker.io/bitnamicharts/redis', read)?.token).toBe('hub-2');
    expect(credentialFor('oci://docker.io.example.com/acme/webapp', read)).toBeUndefined();
    expect(credentialFor('oci://index.docker.io/acme/webapp', read)).toBeUndefined();
  });
});
