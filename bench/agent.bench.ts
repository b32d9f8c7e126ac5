// The agent on a big cluster: 20,000 objects listed from the Kubernetes API stand-in, streamed
// through gzip and uploaded to a local sink. Prints time, throughput and peak RSS (target < 512 MiB).
// The stand-in runs in this process, so its own memory (the 20,000 objects) is in the figure too;
// the increase over the baseline is what the agent adds.
import { KubeConfig } from '@kubernetes/client-node';
import { realTiming } from '../src/agent/retry.js';
import { runAgent } from '../src/agent/run-agent.js';
import type { KubeObject } from '../src/core/model/index.js';
import { standInKubeconfig, startKubeApiStandIn } from '../test/support/kube-api/server.js';
import { startUploadSink } from '../test/agent/sink.js';

const OBJECTS = 20_000;
const TOKEN = 'bench-token';
const MiB = 1024 * 1024;

function deployment(index: number): KubeObject {
  const name = `svc-${index}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: `team-${index % 40}`,
      labels: { app: name, 'app.kubernetes.io/part-of': 'shop' },
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          spec: { replicas: 2, image: `registry.example.com/${name}:1.${index}` },
        }),
      },
      managedFields: [
        {
          manager: 'kustomize-controller',
          operation: 'Apply',
          apiVersion: 'apps/v1',
          time: '2026-12-01T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:spec': {
              'f:replicas': {},
              'f:template': {
                'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
              },
            },
          },
        },
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          subresource: 'status',
          apiVersion: 'apps/v1',
          time: '2026-12-01T10:01:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': { 'f:replicas': {}, 'f:readyReplicas': {} } },
        },
      ],
    },
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
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
              env: [{ name: 'LOG_LEVEL', value: 'info' }],
            },
          ],
        },
      },
    },
    status: {
      replicas: 2,
      readyReplicas: 2,
      observedGeneration: 3,
      conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }],
    },
  };
}

const api = await startKubeApiStandIn({
  token: TOKEN,
  objects: Array.from({ length: OBJECTS }, (_, i) => deployment(i)),
});
const sink = await startUploadSink([{ code: 202, body: { id: 'bench', status: 'queued' } }], { keepBodies: false });
const kubeConfig = new KubeConfig();
kubeConfig.loadFromString(standInKubeconfig(api.url, TOKEN));

(globalThis as { gc?: () => void }).gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);

const started = performance.now();
const outcome = await runAgent(
  {
    url: new URL(sink.url),
    token: 'dbk_bench',
    repository: 'acme/platform-gitops',
    cluster: 'bench',
    scope: { namespaces: [], include: [], exclude: [], secrets: 'omit' },
    deadlineMs: 600_000,
    pageSize: 500,
    requestTimeoutMs: 60_000,
  },
  { kubeConfig, timing: realTiming, log: () => undefined },
);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
await sink.close();
await api.close();

if (outcome.type !== 'uploaded') throw new Error(`bench run did not upload: ${JSON.stringify(outcome)}`);
const { summary } = outcome;
console.log(
  `objects listed and uploaded: ${summary.items} (${(summary.bytes / MiB).toFixed(1)} MiB JSON, ${(outcome.compressedBytes / MiB).toFixed(1)} MiB gzip, ratio ${(summary.bytes / outcome.compressedBytes).toFixed(1)}x)`,
);
console.log(`time: ${seconds.toFixed(2)} s (${Math.round(summary.items / seconds)} objects/s)`);
console.log(
  `peak RSS: ${(peak / MiB).toFixed(0)} MiB (baseline with the stand-in loaded ${(baseline / MiB).toFixed(0)} MiB, agent adds ${((peak - baseline) / MiB).toFixed(0)} MiB); target < 512 MiB: ${peak < 512 * MiB ? 'met' : 'MISSED'}`,
);
