// The repository and cluster the plan scenarios run on: a kustomization for `prod` (namespace
// shop) with a Deployment scaled by hand, one under an HPA, a ConfigMap to prune, a PVC; and the
// live state an applier would leave, plus the manual changes the scenarios are about.
import { renderManifests } from '../../src/core/manifests/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { liveOf } from '../core/plan/build.js';

export const CONFIG = `clusters:
  - name: prod
    path: clusters/prod
    staleAfter: 30m
  - name: edge
    path: clusters/edge
`;

export const deployment = (name: string, image: string, replicas?: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app: ${name}
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: ${name}
          image: ${image}
`;

export const API = deployment('api', 'registry.example/shop/api:1.4.0', 2);
export const WEB = `${deployment('web', 'registry.example/shop/web:2.0.1')}---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 10
`;
export const SETTINGS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  LOG_LEVEL: info
`;
export const LEGACY = `apiVersion: v1
kind: ConfigMap
metadata:
  name: legacy
data:
  MODE: old
`;
export const DATA = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 10Gi
`;

export const kustomization = (resources: string[]): string => `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: shop
resources:
${resources.map((r) => `  - ${r}`).join('\n')}
`;

export const FILES: Record<string, string> = {
  '.github/driftback.yml': CONFIG,
  'clusters/prod/kustomization.yaml': kustomization([
    'api.yaml',
    'web.yaml',
    'settings.yaml',
    'legacy.yaml',
    'data.yaml',
  ]),
  'clusters/prod/api.yaml': API,
  'clusters/prod/web.yaml': WEB,
  'clusters/prod/settings.yaml': SETTINGS,
  'clusters/prod/legacy.yaml': LEGACY,
  'clusters/prod/data.yaml': DATA,
  'clusters/edge/kustomization.yaml': kustomization(['api.yaml']),
  'clusters/edge/api.yaml': API,
  'docs/README.md': '# Platform\n',
};

/** Live state of a cluster: what the applier applied; in edge `kubectl scale api --replicas=8` (a hotfix), in prod the HPA scaling web to 5. */
export function liveOfCluster(path: 'clusters/prod' | 'clusters/edge'): KubeObject[] {
  const rendered = renderManifests(new Map(Object.entries(FILES)), path);
  if (rendered.errors.length) throw new Error(rendered.errors.map((e) => e.message).join('; '));
  return rendered.objects.map((desired) => {
    const live = liveOf(desired);
    if (path === 'clusters/edge' && desired.key.kind === 'Deployment' && desired.key.name === 'api') {
      (live.spec as Record<string, unknown>).replicas = 8;
      live.metadata.managedFields!.push({
        manager: 'kubectl-scale',
        operation: 'Update',
        subresource: 'scale',
        time: '2026-12-02T03:02:11Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      });
    }
    if (desired.key.kind === 'Deployment' && desired.key.name === 'web') {
      (live.spec as Record<string, unknown>).replicas = 5;
      live.metadata.managedFields!.push({
        manager: 'horizontal-pod-autoscaler',
        operation: 'Update',
        subresource: 'scale',
        time: '2026-12-02T09:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      });
    }
    return live;
  });
}

export const liveProd = (): KubeObject[] => liveOfCluster('clusters/prod');
export const liveEdge = (): KubeObject[] => liveOfCluster('clusters/edge');

/**
 * prod after `kubectl scale deploy/api --replicas=N` at 11:50 (kubectl's Update of the scale
 * subresource) and, when `swapped`, a raw API client's (`curl`) PATCH of web's image to a registry the
 * repository never uses at 11:55: an ordinary hotfix, and security-relevant drift.
 */
export function liveProdHandEdited(options: { replicas?: number; swapped: boolean }): KubeObject[] {
  return liveProd().map((object) => {
    const spec = object.spec as Record<string, any>;
    if (object.kind === 'Deployment' && object.metadata.name === 'api') {
      spec.replicas = options.replicas ?? 5;
      object.metadata.managedFields!.push({
        manager: 'kubectl',
        operation: 'Update',
        subresource: 'scale',
        time: '2026-12-02T11:50:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      });
    }
    if (options.swapped && object.kind === 'Deployment' && object.metadata.name === 'web') {
      spec.template.spec.containers[0].image = 'registry.evil.example:5000/shop/web:2.0.1';
      object.metadata.managedFields!.push({
        manager: 'curl',
        operation: 'Update',
        time: '2026-12-02T11:55:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {} } } } } },
        },
      });
    }
    return object;
  });
}
