// Realistic generated workloads for benchmarks: apps of Deployment + Service + ConfigMap + Ingress +
// HPA, written as multi-document manifest files, and the live objects an API server would return
// after kustomize-controller applied them: server-set metadata, defaulted fields, status, and
// managedFields. A few percent drift by hand (kubectl
// scale / edit), with the managedFields entries that prove it. Deterministic for a given seed.
import { stringify } from 'yaml';
import type { KubeObject, ManagedFieldsEntry } from '../src/core/model/index.js';

export interface GenerateOptions {
  /** How many resources (desired objects) to generate; rounded to whole apps. */
  resources: number;
  /** Share of apps drifted by hand. Default 0.03. */
  driftRate?: number;
  /** Namespaces the apps are spread over. Default 50. */
  namespaces?: number;
  /** PRNG seed. Default 1. */
  seed?: number;
}

export interface GeneratedCluster {
  /** Manifest files, path → text: `<namespace>/<app>.yaml`. */
  files: Map<string, string>;
  live: KubeObject[];
  /** How many desired objects the files hold. */
  resourceCount: number;
  /** How many objects were drifted by hand. */
  drifted: number;
}

const APPLIED_AT = '2026-11-30T08:00:00Z';
const EDITED_AT = '2026-12-02T03:02:11Z';

/** mulberry32: small, fast, and the same sequence for the same seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The managedFields (FieldsV1) form of an object's fields, keyed list items by their merge keys. */
export function fieldsV1Of(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [key, child] of Object.entries(value)) {
    if (Array.isArray(child)) {
      const list: Record<string, unknown> = {};
      for (const item of child) {
        if (typeof item !== 'object' || item === null) continue;
        const record = item as Record<string, unknown>;
        const mergeKey =
          'name' in record
            ? { name: record.name }
            : 'containerPort' in record
              ? { containerPort: record.containerPort, protocol: record.protocol ?? 'TCP' }
              : 'port' in record
                ? { port: record.port, protocol: record.protocol ?? 'TCP' }
                : undefined;
        if (mergeKey) list[`k:${JSON.stringify(mergeKey)}`] = { '.': {}, ...fieldsV1Of(record) };
      }
      out[`f:${key}`] = Object.keys(list).length > 0 ? list : {};
    } else if (typeof child === 'object' && child !== null) {
      out[`f:${key}`] = { '.': {}, ...fieldsV1Of(child) };
    } else {
      out[`f:${key}`] = {};
    }
  }
  return out;
}

function appObjects(app: string, namespace: string, random: () => number): KubeObject[] {
  const labels = {
    app,
    'app.kubernetes.io/name': app,
    'app.kubernetes.io/part-of': 'shop',
    team: `team-${Math.floor(random() * 12)}`,
  };
  const port = 8000 + Math.floor(random() * 1000);
  const env = Array.from({ length: 3 + Math.floor(random() * 6) }, (_, i) => ({
    name: `SETTING_${i}`,
    value: `value-${Math.floor(random() * 1e6)}`,
  }));
  const objects: KubeObject[] = [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: app, labels, annotations: { 'reloader.stakater.com/auto': 'true' } },
      spec: {
        replicas: 2 + Math.floor(random() * 4),
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: app,
            containers: [
              {
                name: app,
                image: `registry.example.com/shop/${app}:1.${Math.floor(random() * 40)}.${Math.floor(random() * 10)}`,
                ports: [{ name: 'http', containerPort: port }],
                env: [...env, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
                envFrom: [{ configMapRef: { name: `${app}-config` } }],
                resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
                readinessProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 5 },
                livenessProbe: { httpGet: { path: '/healthz', port }, initialDelaySeconds: 10 },
                volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
              },
            ],
            volumes: [{ name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: app, labels },
      spec: { selector: { app }, ports: [{ name: 'http', port: 80, targetPort: port }] },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${app}-config`, labels },
      data: Object.fromEntries(
        Array.from({ length: 4 + Math.floor(random() * 8) }, (_, i) => [
          `KEY_${i}`,
          `config-value-${Math.floor(random() * 1e9)}`,
        ]),
      ),
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: app, labels, annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' } },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: `${app}.${namespace}.example.com`,
            http: {
              paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: app, port: { number: 80 } } } }],
            },
          },
        ],
      },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: app, labels },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: app },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        ],
      },
    },
  ];
  for (const object of objects) object.metadata.namespace = namespace;
  return objects;
}

/** What the API server adds: defaults, identity, status, and the applier's managedFields. */
function applied(object: KubeObject, index: number): KubeObject {
  const live = structuredClone(object);
  const managedFields: ManagedFieldsEntry[] = [
    {
      manager: 'kustomize-controller',
      operation: 'Apply',
      apiVersion: live.apiVersion,
      time: APPLIED_AT,
      fieldsType: 'FieldsV1',
      fieldsV1: fieldsV1Of({
        metadata: { labels: live.metadata.labels, annotations: live.metadata.annotations },
        spec: live.spec,
        data: live.data,
      }),
    },
  ];
  live.metadata = {
    ...live.metadata,
    uid: `0000-${index}`,
    resourceVersion: String(100000 + index),
    generation: 1,
    creationTimestamp: APPLIED_AT,
    managedFields,
  };
  if (live.kind === 'Deployment') {
    const spec = live.spec as any;
    spec.progressDeadlineSeconds = 600;
    spec.revisionHistoryLimit = 10;
    spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
    Object.assign(spec.template.spec, {
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
    });
    for (const container of spec.template.spec.containers) {
      Object.assign(container, {
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      });
      for (const port of container.ports) port.protocol = 'TCP';
    }
    live.status = {
      observedGeneration: 1,
      replicas: spec.replicas,
      updatedReplicas: spec.replicas,
      readyReplicas: spec.replicas,
      availableReplicas: spec.replicas,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          lastTransitionTime: APPLIED_AT,
          lastUpdateTime: APPLIED_AT,
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          lastTransitionTime: APPLIED_AT,
          lastUpdateTime: APPLIED_AT,
          message: `ReplicaSet "${live.metadata.name}-5d8f7c9b4" has successfully progressed.`,
        },
      ],
    };
    live.metadata.managedFields!.push({
      manager: 'kube-controller-manager',
      operation: 'Update',
      subresource: 'status',
      time: APPLIED_AT,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': fieldsV1Of(live.status) },
    });
  } else if (live.kind === 'Service') {
    const spec = live.spec as any;
    Object.assign(spec, {
      type: 'ClusterIP',
      sessionAffinity: 'None',
      clusterIP: `10.96.${index % 250}.${(index * 7) % 250}`,
      clusterIPs: [`10.96.${index % 250}.${(index * 7) % 250}`],
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    for (const port of spec.ports) port.protocol = 'TCP';
    live.status = { loadBalancer: {} };
  } else if (live.kind === 'Ingress') {
    live.status = { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } };
  } else if (live.kind === 'HorizontalPodAutoscaler') {
    live.status = {
      currentReplicas: 2,
      desiredReplicas: 2,
      conditions: [
        { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' },
        { type: 'ScalingLimited', status: 'False', reason: 'DesiredWithinRange' },
      ],
    };
  }
  return live;
}

/** A hand-made change with the managedFields entry that records it. */
function driftByHand(live: KubeObject, random: () => number): void {
  const touch = (manager: string, fieldsV1: Record<string, unknown>) =>
    live.metadata.managedFields!.push({
      manager,
      operation: 'Update',
      apiVersion: live.apiVersion,
      time: EDITED_AT,
      fieldsType: 'FieldsV1',
      fieldsV1,
    });
  if (live.kind === 'Deployment' && random() < 0.5) {
    (live.spec as any).replicas += 3;
    touch('kubectl-scale', { 'f:spec': { 'f:replicas': {} } });
  } else if (live.kind === 'Deployment') {
    const container = (live.spec as any).template.spec.containers[0];
    container.env.push({ name: 'DEBUG', value: 'true' });
    touch('kubectl-edit', {
      'f:spec': {
        'f:template': {
          'f:spec': {
            'f:containers': {
              [`k:{"name":"${container.name}"}`]: {
                'f:env': { 'k:{"name":"DEBUG"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
              },
            },
          },
        },
      },
    });
  } else if (live.kind === 'ConfigMap') {
    (live.data as Record<string, string>).KEY_0 = 'edited-by-hand';
    touch('kubectl-edit', { 'f:data': { 'f:KEY_0': {} } });
  }
}

export function generateCluster(options: GenerateOptions): GeneratedCluster {
  const random = prng(options.seed ?? 1);
  const driftRate = options.driftRate ?? 0.03;
  const namespaces = options.namespaces ?? 50;
  const files = new Map<string, string>();
  const live: KubeObject[] = [];
  let resourceCount = 0;
  let drifted = 0;
  for (let i = 0; resourceCount < options.resources; i++) {
    const namespace = `team-${i % namespaces}`;
    const app = `app-${i}`;
    const objects = appObjects(app, namespace, random).slice(0, options.resources - resourceCount);
    files.set(`${namespace}/${app}.yaml`, objects.map((object) => stringify(object)).join('---\n'));
    const drift = random() < driftRate;
    for (const object of objects) {
      const liveObject = applied(object, live.length);
      if (drift && (object.kind === 'Deployment' || object.kind === 'ConfigMap')) {
        driftByHand(liveObject, random);
        drifted++;
      }
      live.push(liveObject);
    }
    resourceCount += objects.length;
  }
  return { files, live, resourceCount, drifted };
}

/** The live objects as the snapshot document an agent would upload. */
export function snapshotText(cluster: GeneratedCluster): string {
  return JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/platform-gitops',
    cluster: 'bench',
    capturedAt: '2026-12-02T03:05:00Z',
    scope: { complete: true, errors: [] },
    items: cluster.live,
  });
}
