// Rollout state of Deployments, StatefulSets, DaemonSets and ReplicaSets, by the rules
// `kubectl rollout status` and Argo CD (gitops-engine pkg/health) use.
import type { Health, KubeObject } from '../model/index.js';
import { field, findCondition, numberAt, statusConditions, stringAt } from './read.js';

/** observedGeneration behind generation: the controller has not acted on the latest spec yet. */
function generationPending(obj: KubeObject): boolean {
  const generation = numberAt(obj, 'metadata', 'generation') ?? 0;
  const observed = numberAt(obj, 'status', 'observedGeneration') ?? 0;
  return generation > observed;
}

export function deploymentHealth(obj: KubeObject): Health {
  if (field(obj, 'spec', 'paused') === true) return { status: 'Suspended', message: 'Deployment is paused' };
  if (generationPending(obj)) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: observed deployment generation less than desired generation',
    };
  }
  const progressing = findCondition(statusConditions(obj), 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return { status: 'Degraded', message: `Deployment "${obj.metadata.name}" exceeded its progress deadline` };
  }
  const wanted = numberAt(obj, 'spec', 'replicas');
  const updated = numberAt(obj, 'status', 'updatedReplicas') ?? 0;
  const current = numberAt(obj, 'status', 'replicas') ?? 0;
  const available = numberAt(obj, 'status', 'availableReplicas') ?? 0;
  if (wanted !== undefined && updated < wanted) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${updated} out of ${wanted} new replicas have been updated...`,
    };
  }
  if (current > updated) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${current - updated} old replicas are pending termination...`,
    };
  }
  if (available < updated) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${available} of ${updated} updated replicas are available...`,
    };
  }
  return { status: 'Healthy' };
}

export function statefulSetHealth(obj: KubeObject): Health {
  if (numberAt(obj, 'status', 'observedGeneration') === undefined || generationPending(obj)) {
    return { status: 'Progressing', message: 'Waiting for statefulset spec update to be observed...' };
  }
  // OnDelete: pods change only when someone deletes them, so there is no rollout to wait for.
  if (stringAt(obj, 'spec', 'updateStrategy', 'type') === 'OnDelete') {
    return {
      status: 'Healthy',
      message: `statefulset has ${stringAt(obj, 'spec', 'updateStrategy', 'type')} update strategy`,
    };
  }
  const wanted = numberAt(obj, 'spec', 'replicas');
  const ready = numberAt(obj, 'status', 'readyReplicas') ?? 0;
  if (wanted !== undefined && ready < wanted) {
    return { status: 'Progressing', message: `Waiting for ${wanted - ready} pods to be ready...` };
  }
  const partition = numberAt(obj, 'spec', 'updateStrategy', 'rollingUpdate', 'partition');
  if (
    stringAt(obj, 'spec', 'updateStrategy', 'type') === 'RollingUpdate' &&
    partition !== undefined &&
    wanted !== undefined
  ) {
    const updated = numberAt(obj, 'status', 'updatedReplicas') ?? 0;
    if (updated < wanted - partition) {
      return {
        status: 'Progressing',
        message: `Waiting for partitioned roll out to finish: ${updated} out of ${wanted - partition} new pods have been updated...`,
      };
    }
    return { status: 'Healthy', message: `partitioned roll out complete: ${updated} new pods have been updated...` };
  }
  const updateRevision = stringAt(obj, 'status', 'updateRevision');
  const currentRevision = stringAt(obj, 'status', 'currentRevision');
  if (updateRevision !== currentRevision) {
    return {
      status: 'Progressing',
      message: `waiting for statefulset rolling update to complete ${numberAt(obj, 'status', 'updatedReplicas') ?? 0} pods at revision ${updateRevision}...`,
    };
  }
  return {
    status: 'Healthy',
    message: `statefulset rolling update complete ${numberAt(obj, 'status', 'currentReplicas') ?? 0} pods at revision ${currentRevision}...`,
  };
}

export function daemonSetHealth(obj: KubeObject): Health {
  if (numberAt(obj, 'status', 'observedGeneration') === undefined || generationPending(obj)) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: observed daemon set generation less than desired generation',
    };
  }
  if (stringAt(obj, 'spec', 'updateStrategy', 'type') === 'OnDelete') {
    return { status: 'Healthy', message: 'daemon set has OnDelete update strategy' };
  }
  const desired = numberAt(obj, 'status', 'desiredNumberScheduled') ?? 0;
  const updated = numberAt(obj, 'status', 'updatedNumberScheduled') ?? 0;
  const available = numberAt(obj, 'status', 'numberAvailable') ?? 0;
  if (updated < desired) {
    return {
      status: 'Progressing',
      message: `Waiting for daemon set "${obj.metadata.name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    };
  }
  if (available < desired) {
    return {
      status: 'Progressing',
      message: `Waiting for daemon set "${obj.metadata.name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
    };
  }
  return { status: 'Healthy' };
}

export function replicaSetHealth(obj: KubeObject): Health {
  if (generationPending(obj)) {
    return {
      status: 'Progressing',
      message: 'Waiting for rollout to finish: observed replica set generation less than desired generation',
    };
  }
  const failure = findCondition(statusConditions(obj), 'ReplicaFailure');
  if (failure && failure.status === 'True') return { status: 'Degraded', message: failure.message };
  const wanted = numberAt(obj, 'spec', 'replicas');
  const available = numberAt(obj, 'status', 'availableReplicas') ?? 0;
  if (wanted !== undefined && available < wanted) {
    return {
      status: 'Progressing',
      message: `Waiting for rollout to finish: ${available} out of ${wanted} new replicas are available...`,
    };
  }
  return { status: 'Healthy' };
}
