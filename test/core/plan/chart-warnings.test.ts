// A plan of a commit that declares a HelmRelease warns about hand changes on that release's chart output.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../../src/core/plan/index.js';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { configSchema } from '../../../src/core/config/index.js';
import { scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';

const config = configSchema.parse({});

describe('plan warnings for hand changes on chart output', () => {
  const files = scenarioRepository('flux-helm');
  const head = renderManifests(files, 'apps/staging', {}).objects;

  it('names the field, who and when, and where the change belongs', () => {
    const live = scenarioSnapshot('flux-helm', 'hand-changes').items;
    const plan = planChanges({ head, live, config, now: '2026-12-01T10:50:00Z' });
    const warnings = plan.warnings.filter((w) => w.code === 'chart-hand-change');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      id: { group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' },
      path: '/spec/template/spec/containers/0/image',
    });
    expect(warnings[0]!.message).toMatch(/kubectl-set/);
    expect(warnings[0]!.message).toMatch(/Helm release podinfo\/podinfo/);
    expect(warnings[0]!.message).toMatch(/image\.tag/);
    expect(warnings[0]!.file).toMatch(/^apps\//);
  });

  it('says it in one sentence: the upgrade undoes it, so change the values instead', () => {
    const live = scenarioSnapshot('flux-helm', 'hand-changes').items;
    const plan = planChanges({ head, live, config, now: '2026-12-01T10:50:00Z' });
    const [warning] = plan.warnings.filter((w) => w.code === 'chart-hand-change');
    expect(warning!.message).toMatch(
      /on chart output of Helm release podinfo\/podinfo, so the next upgrade undoes it: change the image in the HelmRelease's `spec\.values` \(e\.g\. `image\.tag`\) instead\.$/,
    );
    expect(warning!.message.match(/Helm release/g)).toHaveLength(1);
  });

  it('says nothing when nobody changed the chart output', () => {
    const live = scenarioSnapshot('flux-helm', 'unchanged').items;
    const plan = planChanges({ head, live, config, now: '2026-12-01T10:35:00Z' });
    expect(plan.warnings.filter((w) => w.code === 'chart-hand-change')).toEqual([]);
  });
});
