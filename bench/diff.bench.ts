// The drift engine on a big cluster: 10,000 desired Deployments against their live objects (defaults,
// managedFields, status, a last-applied annotation; 1 in 50 scaled by hand). Prints time per run and
// the ratio between 1,000 and 10,000 resources, which stays near 10 when pairing is linear.
import { diffResources } from '../src/core/diff/index.js';
import { applyPersistenceGate } from '../src/core/classify/index.js';
import { configSchema } from '../src/core/config/index.js';
import type { DesiredObject, KubeObject } from '../src/core/model/index.js';
import { keyOf } from '../src/core/model/index.js';

const config = configSchema.parse({
  drift: {
    ignore: [{ kinds: ['Deployment'], paths: ['/spec/template/metadata/annotations'], reason: 'restart stamps' }],
  },
});

function desired(index: number): KubeObject {
  const name = `svc-${index}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: `team-${index % 40}`, labels: { app: name, 'app.kubernetes.io/part-of': 'shop' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: `registry.example.com/${name}:1.${index}`,
              ports: [{ containerPort: 8080 }],
              resources: { requests: { cpu: '0.1', memory: '128Mi' } },
              env: [
                { name: 'LOG_LEVEL', value: 'info' },
                { name: 'REGION', value: 'eu' },
              ],
            },
            { name: 'proxy', image: 'envoy:1.30', args: ['--config', '/etc/envoy.yaml'] },
          ],
        },
      },
    },
  };
}

function live(index: number): KubeObject {
  const obj = structuredClone(desired(index)) as KubeObject & { spec: any };
  const scaled = index % 50 === 0;
  obj.metadata = {
    ...obj.metadata,
    uid: `uid-${index}`,
    resourceVersion: String(1000 + index),
    generation: 3,
    creationTimestamp: '2026-11-01T00:00:00Z',
    annotations: {
      'deployment.kubernetes.io/revision': '3',
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(desired(index)),
    },
    managedFields: [
      {
        manager: 'kustomize-controller',
        operation: 'Apply',
        time: '2026-12-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {}, 'f:app.kubernetes.io/part-of': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"app"}': {
                    '.': {},
                    'f:image': {},
                    'f:name': {},
                    'f:env': { 'k:{"name":"LOG_LEVEL"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
                  },
                  'k:{"name":"proxy"}': { '.': {}, 'f:image': {}, 'f:args': {} },
                },
              },
            },
          },
        },
      },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        time: '2026-12-01T10:01:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:deployment.kubernetes.io/revision': {} } } },
      },
      ...(scaled
        ? [
            {
              manager: 'kubectl-scale',
              operation: 'Update',
              subresource: 'scale',
              time: '2026-12-02T03:00:00Z',
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:spec': { 'f:replicas': {} } },
            },
          ]
        : []),
    ],
  };
  obj.spec.replicas = scaled ? 8 : 2;
  obj.spec.progressDeadlineSeconds = 600;
  obj.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
  const pod = obj.spec.template.spec;
  pod.dnsPolicy = 'ClusterFirst';
  pod.restartPolicy = 'Always';
  pod.containers = [...pod.containers]
    .reverse()
    .map((c: any) => ({ ...c, imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' }));
  pod.containers[1].ports = [{ containerPort: 8080, protocol: 'TCP' }];
  pod.containers[1].resources = { requests: { cpu: '100m', memory: '128Mi' } };
  obj.status = {
    replicas: 2,
    readyReplicas: 2,
    observedGeneration: 3,
    conditions: [{ type: 'Available', status: 'True' }],
  };
  return obj;
}

function inputs(count: number): { want: DesiredObject[]; have: KubeObject[] } {
  const want = Array.from({ length: count }, (_, i) => {
    const object = desired(i);
    return {
      key: keyOf(object),
      object,
      source: {
        file: 'x.yaml',
        document: 0,
        location: { file: 'x.yaml', document: 0, range: [0, 0] as [number, number], line: 1, column: 1 },
        kustomizations: [],
        sourceName: object.metadata.name!,
        fields: {},
      },
    };
  });
  return { want, have: Array.from({ length: count }, (_, i) => live(i)) };
}

/** Best wall time and best CPU time (user + system of this process): on a shared machine, wall time includes waiting for a core. */
function time(count: number, runs: number): { ms: number; cpuMs: number; modified: number } {
  const { want, have } = inputs(count);
  let best = Infinity;
  let bestCpu = Infinity;
  let modified = 0;
  for (let run = 0; run < runs; run++) {
    // Collect the garbage of building the inputs first, so the figure is the engine's own.
    (globalThis as { gc?: () => void }).gc?.();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = diffResources(want, have, { config });
    const gated = applyPersistenceGate(result, [new Set<string>()], 2);
    const used = process.cpuUsage(cpu);
    best = Math.min(best, performance.now() - started);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1000);
    modified = gated.result.summary.modified + gated.pending.length;
  }
  return { ms: best, cpuMs: bestCpu, modified };
}

time(500, 2); // warm up the JIT
const small = time(1_000, 5);
const big = time(10_000, 3);
console.log(
  `1,000 resources: ${small.ms.toFixed(0)} ms wall, ${small.cpuMs.toFixed(0)} ms CPU (best of 5), ${small.modified} modified (persistent + pending)`,
);
console.log(
  `10,000 resources: ${big.ms.toFixed(0)} ms wall, ${big.cpuMs.toFixed(0)} ms CPU (best of 3), ${big.modified} modified; target < 1000 ms CPU: ${big.cpuMs < 1000 ? 'met' : 'MISSED'}`,
);
console.log(
  `ratio 10,000 / 1,000: ${(big.cpuMs / small.cpuMs).toFixed(1)}x CPU, ${(big.ms / small.ms).toFixed(1)}x wall (linear = 10x)`,
);
console.log(`per resource: ${((big.cpuMs / 10_000) * 1000).toFixed(0)} µs CPU`);
