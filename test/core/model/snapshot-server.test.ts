// The snapshot's `server` block: discovery's word on each type (`server.resources`) is optional, so a
// snapshot from an agent that records none is read as before; a block that is there must be a list of
// types, each saying whether it is namespaced.
import { describe, expect, it } from 'vitest';
import { parseSnapshot } from '../../../src/core/model/index.js';

const snapshot = (server: unknown) => ({
  apiVersion: 'driftback.dev/v1',
  kind: 'Snapshot',
  repository: 'acme/platform-gitops',
  cluster: 'prod',
  capturedAt: '2026-12-01T12:00:00Z',
  server,
  scope: { complete: true, errors: [] },
  items: [],
});

describe('server.resources', () => {
  it('is read when the agent records it', () => {
    const served = [
      { group: 'helm.crossplane.io', version: 'v1beta1', kind: 'Release', resource: 'releases', namespaced: false },
    ];
    const parsed = parseSnapshot(snapshot({ gitVersion: 'v1.35.0', resources: served }));
    expect(parsed).toEqual({
      ok: true,
      value: expect.objectContaining({ server: { gitVersion: 'v1.35.0', resources: served } }),
    });
  });

  it('is optional: an older agent sends the version alone', () => {
    expect(parseSnapshot(snapshot({ gitVersion: 'v1.31.2' }))).toMatchObject({ ok: true });
  });

  it('names the type whose scope is missing', () => {
    const parsed = parseSnapshot(snapshot({ resources: [{ group: '', kind: 'Pod', resource: 'pods' }] }));
    expect(parsed).toEqual({
      ok: false,
      problems: [expect.objectContaining({ path: 'server.resources[0].namespaced' })],
    });
  });
});
