// The drift pull request's marker hash covers what the body says about the drift: a new revision applied
// by the controller (the body shows it) leaves the pull request as it is; a different drift count does not.
import { expect, it } from 'vitest';
import type { DriftGroup } from '../../src/core/pipeline/index.js';
import { pullRequestBody } from '../../src/app/reconcile/pull-request-body.js';
import type { SourceReport } from '../../src/core/model/index.js';

const key = { group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' };
const change = {
  path: '/spec/replicas',
  segments: ['spec', 'replicas'],
  op: 'replace' as const,
  desired: 2,
  live: 4,
  cause: 'human' as const,
};

function group(appliedRevision: string, drift: number): DriftGroup {
  const source: SourceReport = {
    name: 'flux-system/apps',
    controller: 'flux',
    path: './apps/kind-dev',
    scope: 'rendered',
    suspended: false,
    appliedRevision,
    counts: { drift },
  };
  return {
    namespace: undefined,
    branch: 'driftback/kind-dev',
    fingerprints: [],
    result: {
      resources: [],
      summary: { inSync: 0, modified: 0, missing: 0, extra: 0, ignored: 0, conflicts: 0 },
      unlisted: [],
    },
    codify: {
      edits: new Map(),
      codified: [{ key, change, file: 'apps/kind-dev/kustomization.yaml', line: 7, kind: 'replace' as const }],
      reported: [],
      check: { ok: true },
    },
    sources: [source],
  };
}

const marker = (body: string): string => body.slice(body.lastIndexOf('<!--'));
const snapshot = { id: 'snp_1', capturedAt: '2026-12-01T12:09:00Z' };

it('names the applied revision in the body, and keeps it out of the marker hash', async () => {
  const before = await pullRequestBody('kind-dev', group('main@sha1:1111111', 1), snapshot);
  const after = await pullRequestBody('kind-dev', group('main@sha1:2222222', 1), snapshot);
  expect(before).toContain('- `flux-system/apps`: 1 object, 1 live change, applied `main@sha1:1111111`\n');
  expect(after).toContain('applied `main@sha1:2222222`');
  expect(marker(after)).toBe(marker(before));
  expect(marker(await pullRequestBody('kind-dev', group('main@sha1:1111111', 2), snapshot))).not.toBe(marker(before));
});
