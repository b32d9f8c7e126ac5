import { describe, expect, it } from 'vitest';
import { overridesOf, renderChecklist, renderSuspendedAlert, withChecklist } from '../../../src/core/report/index.js';

const NONE = { merged: false, resumed: false, applied: false, inSync: false };

describe('the emergency checklist', () => {
  it('is replaced in place, the rest of the body kept byte for byte', () => {
    const body = `## Emergency change\n\nbefore\n\n${renderChecklist(NONE)}\n\nafter: the drift report\n`;
    const ticked = withChecklist(body, { ...NONE, merged: true, resumed: true });
    expect(ticked).toBe(body.replace('- [ ] merged', '- [x] merged').replace('- [ ] resumed', '- [x] resumed'));
    expect(withChecklist(ticked!, NONE)).toBe(body);
  });

  it('leaves a body without a checklist alone', () => {
    expect(withChecklist('a pull request someone rewrote', NONE)).toBeUndefined();
  });
});

describe('the emergency alerts', () => {
  const suspension = {
    id: 'flux-system/apps',
    kind: 'flux-kustomization' as const,
    method: 'suspend' as const,
    who: 'flux',
    since: '2026-12-01T10:02:00Z',
    object: {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      namespace: 'flux-system',
      name: 'apps',
    },
  };
  const input = {
    cluster: 'kind-dev',
    view: { suspension, since: suspension.since },
    now: '2026-12-01T19:10:00Z',
    resumeWithin: '8h',
  };

  it('a repository template shapes the still-suspended alert', () => {
    const templates = overridesOf({
      'suspended-alert': '{{code resource}} by {{code who}} for {{text age}}: {{code resumeCommand}}\n',
    });
    expect(renderSuspendedAlert(input, { templates }).body).toBe(
      '`Kustomization/flux-system/apps` by `flux` for 9h 8m: `flux resume kustomization apps -n flux-system`\n',
    );
  });

  it('names a forgotten suspension when there is no pull request', () => {
    expect(renderSuspendedAlert(input).body).toContain('a forgotten suspension');
    expect(renderSuspendedAlert({ ...input, pullRequest: 7, merged: true }).body).toContain(
      '#7 is merged: resume the source',
    );
  });
});
