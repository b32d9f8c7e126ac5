// Each manager name maps to the cause people would give it.
import { describe, expect, it } from 'vitest';
import { classifyManager } from '../../../src/core/classify/index.js';
import { configSchema } from '../../../src/core/config/index.js';

const config = configSchema.parse({});
const custom = configSchema.parse({ drift: { humanManagers: ['ops-portal', 'team-*'], appliers: ['ci-deployer'] } });

describe('classifyManager', () => {
  const rows: Array<[string, string | undefined, string]> = [
    ['kubectl-edit', undefined, 'human'],
    ['kubectl-patch', undefined, 'human'],
    ['kubectl-scale', undefined, 'human'],
    ['kubectl-set', undefined, 'human'],
    ['kubectl-annotate', undefined, 'human'],
    ['kubectl-label', undefined, 'human'],
    ['kubectl-create', undefined, 'human'],
    ['kubectl-replace', undefined, 'human'],
    ['kubectl-rollout', undefined, 'human'],
    ['kubectl', 'Update', 'human'],
    ['kubectl', 'Apply', 'applier'],
    ['flux', 'Apply', 'applier'],
    ['flux', 'Update', 'human'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 'Update', 'human'],
    ['k9s', undefined, 'human'],
    ['Lens', undefined, 'human'],
    ['OpenLens', undefined, 'human'],
    ['headlamp', undefined, 'human'],
    ['kubernetes-dashboard', undefined, 'human'],
    ['rancher', undefined, 'human'],
    ['horizontal-pod-autoscaler', undefined, 'controller'],
    ['vpa-updater', undefined, 'controller'],
    ['kube-controller-manager', undefined, 'controller'],
    ['kube-scheduler', undefined, 'controller'],
    ['kubelet', undefined, 'controller'],
    ['istio-sidecar-injector', undefined, 'controller'],
    ['linkerd-proxy-injector', undefined, 'controller'],
    ['cert-manager-cainjector', undefined, 'controller'],
    ['cluster-autoscaler', undefined, 'controller'],
    ['pod-identity-webhook', undefined, 'controller'],
    ['prometheus-operator', undefined, 'controller'],
    ['manager', undefined, 'controller'],
    ['kustomize-controller', 'Apply', 'applier'],
    ['argocd-controller', 'Apply', 'applier'],
    ['helm-controller', 'Update', 'applier'],
    ['kubectl-client-side-apply', 'Update', 'applier'],
    ['argocd', 'Update', 'applier'],
    ['my-script', 'Update', 'unknown'],
    ['revision-history-manager', 'Apply', 'unknown'],
  ];
  for (const [manager, operation, cause] of rows) {
    it(`${manager}${operation ? ` (${operation})` : ''} → ${cause}`, () => {
      expect(classifyManager(manager, config, operation)).toBe(cause);
    });
  }
  it('configured human managers and appliers, by name or glob, come first', () => {
    expect(classifyManager('ops-portal', custom)).toBe('human');
    expect(classifyManager('team-dashboard-controller', custom)).toBe('human');
    expect(classifyManager('ci-deployer', custom)).toBe('applier');
    expect(classifyManager('ci-deployer', config)).toBe('unknown');
  });
});
