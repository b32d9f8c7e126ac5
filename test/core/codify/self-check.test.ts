import { describe, expect, it } from 'vitest';
import { codifyWith, type CodifyEngine } from '../../../src/core/codify/index.js';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { configWith, diff, fixtureRepo, liveAfterHandEdit, render } from './support.js';

describe('self-check after codify', () => {
  const files = fixtureRepo('argo-cd');
  const root = 'test/e2e/testdata/guestbook';
  const live = render(files, root).map((d) =>
    liveAfterHandEdit(
      d.object,
      d.key.kind === 'Deployment' ? [{ segments: ['spec', 'replicas'], value: 2 }] : [],
      'kubectl-scale',
    ),
  );
  const config = configWith();
  const result = diff(render(files, root), live, config);

  it('writes nothing and says why when the edited files do not make the change go away', () => {
    // An engine that renders the original files whatever codify wrote: the change stays.
    const stale: CodifyEngine = {
      render: (_files, r, options) => renderManifests(files, r, options),
      diff: (desired, liveObjects) => diff(desired, liveObjects, config),
    };
    const out = codifyWith(stale, { files, root, result, live, config });
    expect(out.check).toEqual({
      ok: false,
      reason: 'still or newly different after the edit: apps/Deployment/default/guestbook-ui /spec/replicas (replace)',
    });
    expect(out.edits.size).toBe(0);
    expect(out.codified).toEqual([]);
    expect(out.reported).toContainEqual(
      expect.objectContaining({
        change: expect.objectContaining({ path: '/spec/replicas' }),
        reason:
          'not written: still or newly different after the edit: apps/Deployment/default/guestbook-ui /spec/replicas (replace)',
      }),
    );
  });

  it('fails when an edit changed something that was not codified', () => {
    const noisy: CodifyEngine = {
      render: (edited, r, options) => renderManifests(edited, r, options),
      diff: (desired, liveObjects) => {
        const after = diff(desired, liveObjects, config);
        const edited = desired.some((d) => (d.object.spec as { replicas?: number }).replicas === 2);
        if (!edited) return after;
        const service = after.resources.find((res) => res.key.kind === 'Service')!;
        service.status = 'modified';
        service.changes.push({
          path: '/spec/type',
          segments: ['spec', 'type'],
          op: 'replace',
          desired: 'ClusterIP',
          live: 'NodePort',
          cause: 'human',
        });
        return after;
      },
    };
    const out = codifyWith(noisy, { files, root, result, live, config });
    expect(out.check.ok).toBe(false);
    expect(!out.check.ok && out.check.reason).toContain('Service/default/guestbook-ui /spec/type (replace)');
    expect(out.edits.size).toBe(0);
  });
});
