// Pod Security Standards facts as drift reads them: where pod specs are, which capabilities Baseline
// allows (kubernetes/kubernetes pod-security-admission policy/check_capabilities_baseline.go), and a
// container's runAsNonRoot with the pod's as fallback (check_runAsNonRoot.go).
import { describe, expect, it } from 'vitest';
import {
  addedCapabilities,
  containersOf,
  podSpecsOf,
  privilegedSettings,
  runsAsNonRoot,
} from '../../../src/core/k8s/index.js';

const pod = (extra: Record<string, unknown> = {}) => ({ containers: [{ name: 'app', image: 'x' }], ...extra });

describe('podSpecsOf', () => {
  it.each([
    ['Pod', { kind: 'Pod', spec: pod() }, [['spec']]],
    ['Deployment', { kind: 'Deployment', spec: { template: { spec: pod() } } }, [['spec', 'template', 'spec']]],
    [
      'CronJob',
      { kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: pod() } } } } },
      [['spec', 'jobTemplate', 'spec', 'template', 'spec']],
    ],
    // A custom workload's templates, wherever its schema puts them (Argo Rollouts, a list of workers).
    ['Rollout', { kind: 'Rollout', spec: { template: { spec: pod() } } }, [['spec', 'template', 'spec']]],
    [
      'list of templates',
      { kind: 'Pool', spec: { workers: [{ template: { spec: pod() } }] } },
      [['spec', 'workers', { index: 0 }, 'template', 'spec']],
    ],
    ['ConfigMap', { kind: 'ConfigMap', data: { containers: 'not a list' } }, []],
  ])('%s', (_name, object, expected) => {
    expect(podSpecsOf(object).map((found) => found.segments)).toEqual(expected);
  });
});

it('names containers of every list by name', () => {
  const spec = pod({ initContainers: [{ name: 'init' }], ephemeralContainers: [{ name: 'debugger' }] });
  const [found] = podSpecsOf({ spec });
  expect(containersOf(found!).map((c) => c.segments)).toEqual([
    ['spec', 'containers', { key: { name: 'app' } }],
    ['spec', 'initContainers', { key: { name: 'init' } }],
    ['spec', 'ephemeralContainers', { key: { name: 'debugger' } }],
  ]);
});

describe('addedCapabilities: beyond the Baseline list', () => {
  it.each([
    [['NET_BIND_SERVICE', 'CHOWN'], []],
    [['SYS_ADMIN'], ['SYS_ADMIN']],
    [['ALL'], ['ALL']],
    [['NET_ADMIN', 'KILL'], ['NET_ADMIN']],
    // NET_RAW is in the runtime's default set but not Baseline's allowed additions.
    [['NET_RAW'], ['NET_RAW']],
  ])('%j → %j', (add, beyond) => {
    expect(addedCapabilities({ securityContext: { capabilities: { add } } })).toEqual(beyond);
  });

  it('reads nothing from a container without a securityContext', () => {
    expect(addedCapabilities({ name: 'x' })).toEqual([]);
  });
});

describe('runsAsNonRoot', () => {
  it.each([
    [{}, {}, false],
    [{ securityContext: { runAsNonRoot: true } }, {}, true],
    [{}, { securityContext: { runAsNonRoot: true } }, true],
    // The container's own setting wins over the pod's.
    [{ securityContext: { runAsNonRoot: true } }, { securityContext: { runAsNonRoot: false } }, false],
  ])('pod %j, container %j → %s', (podSpec, container, expected) => {
    expect(runsAsNonRoot(podSpec, container)).toBe(expected);
  });
});

it('privilegedSettings names privileged and allowPrivilegeEscalation when true', () => {
  expect(privilegedSettings({ securityContext: { privileged: true, allowPrivilegeEscalation: true } })).toEqual([
    'privileged',
    'allowPrivilegeEscalation',
  ]);
  expect(privilegedSettings({ securityContext: { privileged: false, allowPrivilegeEscalation: false } })).toEqual([]);
});
