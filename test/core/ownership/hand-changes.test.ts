// A person's fields on an object no file holds (an install applied with client-side `kubectl apply`):
// reported while they differ from what that apply declared, none once the value is back.
import { describe, expect, it } from 'vitest';
import { handChangesOn } from '../../../src/core/ownership/hand-changes.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { configWith, managed } from '../diff/support.js';

/** argocd-application-controller as install.yaml applied it (replicas 1), then `kubectl scale` to `replicas`. */
function scaled(replicas: number): KubeObject {
  const applied = { apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { replicas: 1 } };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: 'argocd-application-controller',
      namespace: 'argocd',
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(applied) },
      managedFields: [
        managed('kubectl-client-side-apply', { 'f:spec': { 'f:serviceName': {} } }),
        managed('kubectl', { 'f:spec': { 'f:replicas': {} } }, 'Update', '2026-12-02T14:30:00Z', 'scale'),
      ],
    },
    spec: { replicas, serviceName: 'argocd-application-controller' },
  } as KubeObject;
}

describe('handChangesOn', () => {
  const reported = () => ({ code: 'made-by-controller' as const, reason: 'no file holds it' });
  it.each<[string, number, string[]]>([
    ['scaled to 0: the change is reported', 0, ['/spec/replicas']],
    ['scaled back to the 1 the install declared: no change, though kubectl still owns the field', 1, []],
    ['scaled to 3: reported', 3, ['/spec/replicas']],
  ])('%s', (_name, replicas, paths) => {
    expect(handChangesOn(scaled(replicas), configWith(), reported).map((change) => change.path)).toEqual(paths);
  });
});
