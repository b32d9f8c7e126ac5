// The plan warns when a pull request makes a HorizontalPodAutoscaler and Git both set a workload's
// replicas, on the `emergency` scenario's podinfo (apps/podinfo). The HPA is the one kustomize's
// testdata declares (kustomize api/krusty localize testdata `remote/hpa.yaml`, Apache-2.0), aimed at podinfo.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/core/config/index.js';
import { renderManifests } from '../../../src/core/manifests/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { autoscaledReplicas, planChanges } from '../../../src/core/plan/index.js';
import { emergencyRepoFiles, emergencySnapshot } from '../../support/emergency-fixture.js';

const config = configSchema.parse({});
const HPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: hpa-deployment
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: podinfo
  minReplicas: 1
  maxReplicas: 10
`;

/** The repository with `replicas: 2` in podinfo's Deployment and/or the HPA listed in its kustomization. */
function repo({ replicas, hpa }: { replicas: boolean; hpa: boolean }) {
  const files = emergencyRepoFiles();
  const deployment = files.get('apps/podinfo/deployment.yaml')!;
  if (replicas)
    files.set(
      'apps/podinfo/deployment.yaml',
      deployment.replace('  minReadySeconds: 3', '  replicas: 2\n  minReadySeconds: 3'),
    );
  if (hpa) {
    files.set('apps/podinfo/hpa.yaml', HPA);
    files.set(
      'apps/podinfo/kustomization.yaml',
      files.get('apps/podinfo/kustomization.yaml')!.replace('  - service.yaml', '  - service.yaml\n  - hpa.yaml'),
    );
  }
  return renderManifests(files, 'apps/podinfo', { defaultNamespace: 'podinfo' }).objects;
}

const live = emergencySnapshot('flux-1-before').items;
const warned = (base: ReturnType<typeof repo>, head: ReturnType<typeof repo>, objects: KubeObject[] = live) =>
  planChanges({ head, base, live: objects, config, now: '2026-12-01T10:00:00Z' }).warnings.filter(
    (w) => w.code === 'hpa-replicas',
  );

describe('HPA and Git both setting replicas', () => {
  it('a PR adding an HPA whose target declares replicas: the warning, at the replicas line, with the exact fix', () => {
    const [warning, ...more] = warned(repo({ replicas: true, hpa: false }), repo({ replicas: true, hpa: true }));
    expect(more).toEqual([]);
    expect(warning).toMatchObject({
      id: { group: 'apps', kind: 'Deployment', namespace: 'podinfo', name: 'podinfo' },
      path: '/spec/replicas',
      file: 'apps/podinfo/deployment.yaml',
    });
    expect(warning!.line).toBeGreaterThan(0);
    expect(warning!.message).toContain('HorizontalPodAutoscaler `podinfo/hpa-deployment`');
    expect(warning!.message).toContain('Remove `replicas` from the manifest');
    expect(warning!.message).toContain('manager `kube-controller-manager`');
  });

  it('a PR adding replicas to a workload an HPA in Git targets: the same warning', () => {
    expect(warned(repo({ replicas: false, hpa: true }), repo({ replicas: true, hpa: true }))).toHaveLength(1);
  });

  it('a PR adding replicas to a workload an HPA in the cluster targets: the same warning', () => {
    const [hpa] = renderManifests(new Map([['hpa.yaml', HPA]]), '.', { defaultNamespace: 'podinfo' }).objects;
    const withHpa = [...live, { ...hpa!.object, metadata: { ...hpa!.object.metadata, namespace: 'podinfo' } }];
    expect(warned(repo({ replicas: false, hpa: false }), repo({ replicas: true, hpa: false }), withHpa)).toHaveLength(
      1,
    );
    // No HPA anywhere: replicas are no one else's.
    expect(warned(repo({ replicas: false, hpa: false }), repo({ replicas: true, hpa: false }))).toEqual([]);
  });

  it('removing replicas is quiet, and so is a PR that changes neither', () => {
    expect(warned(repo({ replicas: true, hpa: true }), repo({ replicas: false, hpa: true }))).toEqual([]);
    expect(warned(repo({ replicas: true, hpa: true }), repo({ replicas: true, hpa: true }))).toEqual([]);
  });
});

describe('what the dashboard lists: every workload an HPA and Git both scale, whoever brought them together', () => {
  const hpaLive = () => {
    const [hpa] = renderManifests(new Map([['hpa.yaml', HPA]]), '.', { defaultNamespace: 'podinfo' }).objects;
    return [...live, hpa!.object];
  };
  const listed = (head: ReturnType<typeof repo>, objects: KubeObject[] = live) =>
    autoscaledReplicas(head, objects).map((a) => [a.key.name, a.hpa, a.file, typeof a.line]);

  it('an HPA in Git or in the cluster, with the replicas line of the manifest', () => {
    const row = ['podinfo', 'podinfo/hpa-deployment', 'apps/podinfo/deployment.yaml', 'number'];
    expect(listed(repo({ replicas: true, hpa: true }))).toEqual([row]);
    expect(listed(repo({ replicas: true, hpa: false }), hpaLive())).toEqual([row]);
  });

  it('no replicas in the manifest, or no HPA: nothing', () => {
    expect(listed(repo({ replicas: false, hpa: true }), hpaLive())).toEqual([]);
    expect(listed(repo({ replicas: true, hpa: false }))).toEqual([]);
  });
});
