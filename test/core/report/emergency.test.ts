import { describe, expect, it } from 'vitest';
import { emergencyTitle, overridesOf, renderSuspendedAlert } from '../../../src/core/report/index.js';

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

describe('the emergency pull request title', () => {
  const cart = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'cart' };
  const image = ['spec', 'template', 'spec', 'containers', { key: { name: 'cart' } }, 'image'];
  it('names what changed and where', () => {
    const changes = [
      { key: cart, segments: image },
      { key: cart, segments: ['spec', 'replicas'] },
    ];
    expect(emergencyTitle('prod', changes)).toBe('Emergency: Deployment/shop/cart image and replicas on prod');
  });

  it('counts the other objects', () => {
    const web = { ...cart, name: 'web' };
    const changes = [
      { key: cart, segments: ['spec', 'replicas'] },
      { key: web, segments: ['spec', 'replicas'] },
    ];
    expect(emergencyTitle('prod', changes)).toBe('Emergency: Deployment/shop/cart replicas and 1 more object on prod');
  });
});
