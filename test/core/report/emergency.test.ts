import { describe, expect, it } from 'vitest';
import {
  emergencyTitle,
  overridesOf,
  renderDriftPullRequest,
  renderSuspendedAlert,
} from '../../../src/core/report/index.js';
import { NOTHING_DONE, type EmergencyChange } from '../../../src/core/emergency/index.js';

/** `flux suspend kustomization apps -n flux-system`, written by `flux` at `since`. */
const appsSuspended = (since: string) => ({
  id: 'flux-system/apps',
  kind: 'flux-kustomization' as const,
  method: 'suspend' as const,
  who: 'flux',
  since,
  object: {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    namespace: 'flux-system',
    name: 'apps',
  },
});

describe('the emergency alerts', () => {
  const suspension = appsSuspended('2026-12-01T10:02:00Z');
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

describe('the emergency pull request body', () => {
  const suspension = appsSuspended('2026-12-01T22:02:00Z');
  const cart = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'cart' };
  const change = {
    path: '/spec/replicas',
    segments: ['spec', 'replicas'],
    op: 'replace' as const,
    desired: 3,
    live: 5,
  };
  const fix: EmergencyChange = {
    key: cart,
    pointer: '/spec/replicas',
    segments: ['spec', 'replicas'],
    field: 'spec.replicas',
    value: 5,
    manager: 'kubectl',
    time: '2026-12-01T22:05:00Z',
  };
  const switchRow = {
    key: { group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization', namespace: 'flux-system', name: 'apps' },
    change: {
      path: '/spec/suspend',
      segments: ['spec', 'suspend'],
      op: 'add' as const,
      live: true,
      cause: 'human' as const,
    },
    reason: 'ignored: the suspension itself, never codified',
  };
  const view = {
    cluster: 'prod',
    codified: [
      { key: cart, change: { ...change, cause: 'human' as const }, file: 'shop/cart.yaml', line: 7, kind: 'field' },
    ],
    reported: [switchRow],
    snapshot: { id: 'snp_1', capturedAt: '2026-12-01T22:10:00Z' },
    emergency: [
      { view: { suspension, since: suspension.since }, changes: [fix], checklist: NOTHING_DONE, resumeWithin: '8h' },
    ],
    seen: { fewest: 1, most: 1, cap: 2 },
  };

  it('gives the deadline as a wall-clock time, with the date when it is another day', () => {
    expect(renderDriftPullRequest(view)).toContain(
      '2. Then resume it (resume within 8h: by 2026-12-02 06:02 UTC; after that driftback opens an alert): `flux resume kustomization apps -n flux-system`',
    );
  });

  it('says "seen in 1 snapshot" until the change persisted, then "persisted"', () => {
    expect(renderDriftPullRequest(view)).toContain('directly (seen in 1 snapshot).');
    expect(renderDriftPullRequest({ ...view, seen: { fewest: 1, most: 2, cap: 2 } })).toContain(
      'directly (seen in 1 to 2 or more snapshots).',
    );
    const persisted = renderDriftPullRequest({ ...view, seen: { fewest: 2, most: 2, cap: 2 } });
    expect(persisted).toContain('directly, and the changes persisted.');
    expect(persisted).not.toContain('seen in');
  });

  it('names the suspension once: its switch is not a reported row, and no "(suspended)" a resume makes untrue', () => {
    const sources = [
      {
        name: 'flux-system/apps',
        controller: 'flux' as const,
        scope: 'rendered' as const,
        suspended: true,
        counts: { drift: 1 },
      },
    ];
    const body = renderDriftPullRequest({ ...view, sources });
    expect(body).not.toContain('Reported, not codified');
    expect(body).not.toContain('(suspended)');
    expect(body.match(/flux resume kustomization/g)).toHaveLength(1);
    // Without the emergency section, the switch is a reported row like any other.
    const plain = renderDriftPullRequest({ ...view, emergency: [], sources });
    expect(plain).toContain('Reported, not codified');
    expect(plain).toContain('(suspended)');
  });

  it('never advises closing while the cluster needs the fix', () => {
    const body = renderDriftPullRequest(view);
    expect(body).toContain('- **Do not close** this pull request while the cluster needs the fix');
    expect(body).not.toContain("the controller's next apply restores what Git says");
    expect(renderDriftPullRequest({ ...view, emergency: [] })).toContain(
      "the controller's next apply restores what Git says",
    );
  });
});
