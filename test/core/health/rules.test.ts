// One row per health rule: a minimal live object and the verdict a user would expect.
import { describe, expect, it } from 'vitest';
import { assessHealth } from '../../../src/core/health/index.js';
import type { HealthStatus, KubeObject } from '../../../src/core/model/index.js';

function obj(
  apiVersion: string,
  kind: string,
  body: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name: 'x', namespace: 'ns', ...metadata }, ...body };
}

const deployment = (spec: Record<string, unknown>, status: Record<string, unknown>, generation = 2) =>
  obj('apps/v1', 'Deployment', { spec, status }, { generation });
const rolledOut = { observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 3 };
const pod = (restartPolicy: string, status: Record<string, unknown>) =>
  obj('v1', 'Pod', { spec: { restartPolicy, containers: [] }, status });
const waiting = (reason: string) => ({ name: 'app', state: { waiting: { reason, message: `${reason} for app` } } });
const readyCondition = (status: string) => ({ type: 'Ready', status });
const hpa = (conditions: unknown[]) => obj('autoscaling/v2', 'HorizontalPodAutoscaler', { status: { conditions } });

const CASES: Array<[name: string, live: KubeObject, status: HealthStatus, message?: RegExp]> = [
  // Deployments
  ['deployment rolled out', deployment({ replicas: 3 }, rolledOut), 'Healthy'],
  ['deployment paused', deployment({ replicas: 3, paused: true }, rolledOut), 'Suspended', /paused/],
  [
    'deployment generation not observed',
    deployment({ replicas: 3 }, { ...rolledOut, observedGeneration: 1 }),
    'Progressing',
    /generation/,
  ],
  [
    'deployment past its progress deadline',
    deployment(
      { replicas: 3 },
      {
        ...rolledOut,
        updatedReplicas: 1,
        conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }],
      },
    ),
    'Degraded',
    /progress deadline/,
  ],
  [
    'deployment updating replicas',
    deployment({ replicas: 3 }, { ...rolledOut, updatedReplicas: 1 }),
    'Progressing',
    /1 out of 3/,
  ],
  [
    'deployment old replicas terminating',
    deployment({ replicas: 3 }, { ...rolledOut, replicas: 4 }),
    'Progressing',
    /pending termination/,
  ],
  [
    'deployment updated replicas not yet available',
    deployment({ replicas: 3 }, { ...rolledOut, availableReplicas: 2 }),
    'Progressing',
    /2 of 3/,
  ],
  // StatefulSets
  [
    'statefulset ready at one revision',
    obj(
      'apps/v1',
      'StatefulSet',
      {
        spec: { replicas: 2 },
        status: { observedGeneration: 1, readyReplicas: 2, currentRevision: 'a', updateRevision: 'a' },
      },
      { generation: 1 },
    ),
    'Healthy',
  ],
  [
    'statefulset waiting for pods',
    obj(
      'apps/v1',
      'StatefulSet',
      {
        spec: { replicas: 2 },
        status: { observedGeneration: 1, readyReplicas: 1, currentRevision: 'a', updateRevision: 'a' },
      },
      { generation: 1 },
    ),
    'Progressing',
    /1 pods/,
  ],
  [
    'statefulset rolling to a new revision',
    obj(
      'apps/v1',
      'StatefulSet',
      {
        spec: { replicas: 2 },
        status: { observedGeneration: 1, readyReplicas: 2, currentRevision: 'a', updateRevision: 'b' },
      },
      { generation: 1 },
    ),
    'Progressing',
    /revision b/,
  ],
  [
    'statefulset with OnDelete',
    obj(
      'apps/v1',
      'StatefulSet',
      {
        spec: { replicas: 2, updateStrategy: { type: 'OnDelete' } },
        status: { observedGeneration: 1, readyReplicas: 0 },
      },
      { generation: 1 },
    ),
    'Healthy',
  ],
  [
    'statefulset partitioned rollout done',
    obj(
      'apps/v1',
      'StatefulSet',
      {
        spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } },
        status: {
          observedGeneration: 1,
          readyReplicas: 3,
          updatedReplicas: 1,
          currentRevision: 'a',
          updateRevision: 'b',
        },
      },
      { generation: 1 },
    ),
    'Healthy',
    /partitioned/,
  ],
  // DaemonSets and ReplicaSets
  [
    'daemonset rolled out',
    obj(
      'apps/v1',
      'DaemonSet',
      { status: { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 } },
      { generation: 1 },
    ),
    'Healthy',
  ],
  [
    'daemonset updating',
    obj(
      'apps/v1',
      'DaemonSet',
      { status: { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 2, numberAvailable: 3 } },
      { generation: 1 },
    ),
    'Progressing',
  ],
  [
    'daemonset pods unavailable',
    obj(
      'apps/v1',
      'DaemonSet',
      { status: { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 1 } },
      { generation: 1 },
    ),
    'Progressing',
  ],
  [
    'replicaset failing to create pods',
    obj(
      'apps/v1',
      'ReplicaSet',
      {
        spec: { replicas: 2 },
        status: {
          observedGeneration: 1,
          conditions: [{ type: 'ReplicaFailure', status: 'True', message: 'quota exceeded' }],
        },
      },
      { generation: 1 },
    ),
    'Degraded',
    /quota/,
  ],
  [
    'replicaset available',
    obj(
      'apps/v1',
      'ReplicaSet',
      { spec: { replicas: 2 }, status: { observedGeneration: 1, availableReplicas: 2 } },
      { generation: 1 },
    ),
    'Healthy',
  ],
  // Pods
  [
    'pod in CrashLoopBackOff',
    pod('Always', { phase: 'Running', containerStatuses: [waiting('CrashLoopBackOff')] }),
    'Degraded',
    /CrashLoopBackOff for app/,
  ],
  [
    'pod in ImagePullBackOff',
    pod('Always', { phase: 'Pending', containerStatuses: [waiting('ImagePullBackOff')] }),
    'Degraded',
  ],
  [
    'pod in ErrImagePull',
    pod('Always', { phase: 'Pending', containerStatuses: [waiting('ErrImagePull')] }),
    'Degraded',
  ],
  [
    'pod with CreateContainerConfigError',
    pod('Always', { phase: 'Pending', containerStatuses: [waiting('CreateContainerConfigError')] }),
    'Degraded',
  ],
  [
    'one-shot pod waiting for its image is still on its way',
    pod('Never', { phase: 'Pending', containerStatuses: [waiting('ImagePullBackOff')] }),
    'Progressing',
  ],
  [
    'pod just created',
    pod('Always', { phase: 'Pending', containerStatuses: [waiting('ContainerCreating')] }),
    'Progressing',
  ],
  ['pod running and ready', pod('Always', { phase: 'Running', conditions: [readyCondition('True')] }), 'Healthy'],
  [
    'pod running, not ready, restarted',
    pod('Always', {
      phase: 'Running',
      conditions: [readyCondition('False')],
      containerStatuses: [{ name: 'app', lastState: { terminated: { exitCode: 1 } } }],
    }),
    'Degraded',
  ],
  [
    'pod running, not ready yet',
    pod('Always', { phase: 'Running', conditions: [readyCondition('False')] }),
    'Progressing',
  ],
  ['run-once pod running', pod('OnFailure', { phase: 'Running' }), 'Progressing'],
  ['pod succeeded', pod('Never', { phase: 'Succeeded' }), 'Healthy'],
  [
    'pod failed',
    pod('Never', { phase: 'Failed', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 2 } } }] }),
    'Degraded',
    /exit code 2/,
  ],
  ['pod with no phase', pod('Always', {}), 'Unknown'],
  // Networking and storage
  [
    'load balancer without an address',
    obj('v1', 'Service', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: {} } }),
    'Progressing',
  ],
  [
    'load balancer with an IP',
    obj('v1', 'Service', {
      spec: { type: 'LoadBalancer' },
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } },
    }),
    'Healthy',
  ],
  ['ClusterIP service', obj('v1', 'Service', { spec: { type: 'ClusterIP' } }), 'Healthy'],
  [
    'ingress without an address',
    obj('networking.k8s.io/v1', 'Ingress', { status: { loadBalancer: {} } }),
    'Progressing',
  ],
  [
    'ingress with an address',
    obj('networking.k8s.io/v1', 'Ingress', { status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } }),
    'Healthy',
  ],
  ['claim bound', obj('v1', 'PersistentVolumeClaim', { status: { phase: 'Bound' } }), 'Healthy'],
  ['claim pending', obj('v1', 'PersistentVolumeClaim', { status: { phase: 'Pending' } }), 'Progressing'],
  ['claim lost', obj('v1', 'PersistentVolumeClaim', { status: { phase: 'Lost' } }), 'Degraded'],
  // Batch
  ['job running', obj('batch/v1', 'Job', { status: { active: 1 } }), 'Progressing'],
  [
    'job complete',
    obj('batch/v1', 'Job', { status: { conditions: [{ type: 'Complete', status: 'True' }] } }),
    'Healthy',
  ],
  [
    'job failed',
    obj('batch/v1', 'Job', {
      status: { conditions: [{ type: 'Failed', status: 'True', message: 'BackoffLimitExceeded' }] },
    }),
    'Degraded',
    /Backoff/,
  ],
  [
    'job suspended',
    obj('batch/v1', 'Job', {
      spec: { suspend: true },
      status: { conditions: [{ type: 'Suspended', status: 'True', message: 'Job suspended' }] },
    }),
    'Suspended',
  ],
  ['cronjob suspended', obj('batch/v1', 'CronJob', { spec: { suspend: true } }), 'Suspended'],
  ['cronjob never scheduled', obj('batch/v1', 'CronJob', { spec: {}, status: {} }), 'Healthy'],
  [
    'cronjob last run succeeded',
    obj('batch/v1', 'CronJob', {
      status: { lastScheduleTime: '2026-12-02T03:00:00Z', lastSuccessfulTime: '2026-12-02T03:00:40Z' },
    }),
    'Healthy',
  ],
  [
    'cronjob last run failed',
    obj('batch/v1', 'CronJob', {
      status: { lastScheduleTime: '2026-12-02T04:00:00Z', lastSuccessfulTime: '2026-12-02T03:00:40Z' },
    }),
    'Degraded',
  ],
  [
    'cronjob never succeeded',
    obj('batch/v1', 'CronJob', { status: { lastScheduleTime: '2026-12-02T04:00:00Z' } }),
    'Degraded',
  ],
  [
    'cronjob first run in progress',
    obj('batch/v1', 'CronJob', { status: { lastScheduleTime: '2026-12-02T04:00:00Z', active: [{ name: 'j' }] } }),
    'Progressing',
  ],
  // Autoscalers
  [
    'hpa v2 failing to get metrics',
    hpa([{ type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message: 'no metrics' }]),
    'Degraded',
    /no metrics/,
  ],
  [
    'hpa v2 within range, status True',
    hpa([{ type: 'ScalingLimited', status: 'True', reason: 'DesiredWithinRange' }]),
    'Healthy',
  ],
  [
    'hpa v2 condition not True',
    hpa([{ type: 'ScalingLimited', status: 'False', reason: 'DesiredWithinRange' }]),
    'Progressing',
  ],
  ['hpa with no conditions yet', hpa([]), 'Progressing'],
  [
    'hpa v1 conditions annotation',
    obj(
      'autoscaling/v1',
      'HorizontalPodAutoscaler',
      {},
      {
        annotations: {
          'autoscaling.alpha.kubernetes.io/conditions': JSON.stringify([
            { type: 'AbleToScale', status: 'False', reason: 'FailedUpdateScale', message: 'forbidden' },
          ]),
        },
      },
    ),
    'Degraded',
    /forbidden/,
  ],
  [
    'hpa v1 unreadable annotation',
    obj(
      'autoscaling/v1',
      'HorizontalPodAutoscaler',
      {},
      { annotations: { 'autoscaling.alpha.kubernetes.io/conditions': '{not json' } },
    ),
    'Progressing',
  ],
  // APIService
  [
    'apiservice available',
    obj('apiregistration.k8s.io/v1', 'APIService', {
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'Passed' }] },
    }),
    'Healthy',
  ],
  [
    'apiservice unavailable',
    obj('apiregistration.k8s.io/v1', 'APIService', {
      status: {
        conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'no endpoints' }],
      },
    }),
    'Progressing',
    /MissingEndpoints: no endpoints/,
  ],
  // Kinds without a rule, and deletion
  ['ConfigMap (no rule, no status)', obj('v1', 'ConfigMap', { data: { a: '1' } }), 'Healthy'],
  [
    'custom resource stalled',
    obj('example.com/v1', 'Widget', {
      status: { conditions: [{ type: 'Stalled', status: 'True', reason: 'Broken' }] },
    }),
    'Degraded',
  ],
  [
    'custom resource not ready',
    obj('example.com/v1', 'Widget', { status: { conditions: [readyCondition('False')] } }),
    'Degraded',
  ],
  [
    'object being deleted',
    obj(
      'apps/v1',
      'Deployment',
      { spec: { replicas: 1 }, status: rolledOut },
      { deletionTimestamp: '2026-12-02T03:00:00Z' },
    ),
    'Progressing',
    /deletion/,
  ],
  [
    'deployment with an unreadable status',
    obj('apps/v1', 'Deployment', { spec: { replicas: 'three' }, status: 'broken' }, { generation: 1 }),
    'Progressing',
  ],
];

describe('assessHealth', () => {
  it.each(CASES)('%s', (_name, live, status, message) => {
    const health = assessHealth(live);
    expect(health.status).toBe(status);
    if (message) expect(health.message).toMatch(message);
  });
});
