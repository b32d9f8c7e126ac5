// A resource created by hand in the cluster, cleaned of everything the API server added, so that
// the manifest written for it says only what a person would write.
import { isPlainObject, type KubeObject } from '../model/index.js';

const SERVER_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences'];
const SERVER_ANNOTATIONS = [/^kubectl\.kubernetes\.io\//, /^deployment\.kubernetes\.io\//, /^autoscaling\.alpha\.kubernetes\.io\//];

type Json = Record<string, unknown>;

/** Fields whose value equals what the API server fills in when they are left out. */
const WORKLOAD_DEFAULTS: Record<string, Json> = {
  Deployment: { progressDeadlineSeconds: 600, revisionHistoryLimit: 10, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } },
  StatefulSet: { revisionHistoryLimit: 10, podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } },
  DaemonSet: { revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
  ReplicaSet: {},
  Job: { backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, podReplacementPolicy: 'TerminatingOrFailed', manualSelector: undefined },
  CronJob: { concurrencyPolicy: 'Allow', failedJobsHistoryLimit: 1, successfulJobsHistoryLimit: 3, suspend: false },
};

const POD_SPEC_DEFAULTS: Json = { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30, enableServiceLinks: true };
const CONTAINER_DEFAULTS: Json = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} };
const PROBE_DEFAULTS: Json = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
const SERVICE_DEFAULTS: Json = { sessionAffinity: 'None', ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster', type: 'ClusterIP', externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true };

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Removes each field of `target` that equals its default (defaults may nest: a partial match removes the matching part). */
function dropDefaults(target: Json, defaults: Json): void {
  for (const [field, value] of Object.entries(defaults)) {
    if (!(field in target) || value === undefined) continue;
    if (equal(target[field], value)) delete target[field];
    else if (isPlainObject(value) && isPlainObject(target[field])) {
      dropDefaults(target[field] as Json, value);
      if (Object.keys(target[field] as Json).length === 0) delete target[field];
    }
  }
}

function cleanContainer(container: Json): void {
  dropDefaults(container, CONTAINER_DEFAULTS);
  const image = typeof container.image === 'string' ? container.image : '';
  const latest = !/[:@]/.test(image.split('/').pop() ?? '') || image.endsWith(':latest');
  if (container.imagePullPolicy === (latest ? 'Always' : 'IfNotPresent')) delete container.imagePullPolicy;
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) if (isPlainObject(container[probe])) dropDefaults(container[probe] as Json, PROBE_DEFAULTS);
  if (Array.isArray(container.ports)) for (const port of container.ports) if (isPlainObject(port) && port.protocol === 'TCP') delete port.protocol;
  if (Array.isArray(container.env)) {
    for (const env of container.env) {
      const fieldRef = isPlainObject(env) && isPlainObject(env.valueFrom) ? env.valueFrom.fieldRef : undefined;
      if (isPlainObject(fieldRef) && fieldRef.apiVersion === 'v1') delete fieldRef.apiVersion;
    }
  }
}

function cleanPodSpec(spec: Json): void {
  dropDefaults(spec, POD_SPEC_DEFAULTS);
  for (const list of ['containers', 'initContainers']) if (Array.isArray(spec[list])) (spec[list] as unknown[]).filter(isPlainObject).forEach(cleanContainer);
}

function cleanService(spec: Json): void {
  for (const allocated of ['clusterIP', 'clusterIPs', 'ipFamilies', 'healthCheckNodePort']) delete spec[allocated];
  dropDefaults(spec, SERVICE_DEFAULTS);
  if (Array.isArray(spec.ports)) {
    for (const port of spec.ports.filter(isPlainObject)) {
      if (port.protocol === 'TCP') delete port.protocol;
      delete port.nodePort;
    }
  }
}

function podTemplateOf(spec: Json): Json | undefined {
  const template = isPlainObject(spec.jobTemplate) && isPlainObject(spec.jobTemplate.spec) ? spec.jobTemplate.spec.template : spec.template;
  return isPlainObject(template) ? template : undefined;
}

function cleanMetadata(metadata: Json): void {
  for (const field of SERVER_METADATA) delete metadata[field];
  if (isPlainObject(metadata.annotations)) {
    for (const name of Object.keys(metadata.annotations)) if (SERVER_ANNOTATIONS.some((pattern) => pattern.test(name))) delete metadata.annotations[name];
    if (Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
  }
  if (metadata.creationTimestamp === null) delete metadata.creationTimestamp;
}

/** A copy of `live` without status, server metadata, allocated values and recognisable defaults. */
export function cleanLiveObject(live: KubeObject): KubeObject {
  const object = structuredClone(live) as KubeObject;
  delete object.status;
  cleanMetadata(object.metadata as Json);
  if (object.kind === 'Namespace') {
    const labels = object.metadata.labels;
    if (labels && labels['kubernetes.io/metadata.name'] === object.metadata.name) delete labels['kubernetes.io/metadata.name'];
    if (labels && Object.keys(labels).length === 0) delete object.metadata.labels;
    if (isPlainObject(object.spec) && equal(object.spec.finalizers, ['kubernetes'])) delete object.spec;
  }
  const spec = isPlainObject(object.spec) ? (object.spec as Json) : undefined;
  if (!spec) return object;
  if (object.kind === 'Service') cleanService(spec);
  if (object.kind === 'Pod') cleanPodSpec(spec);
  const defaults = WORKLOAD_DEFAULTS[object.kind];
  if (defaults) dropDefaults(spec, defaults);
  const template = podTemplateOf(spec);
  if (template) {
    if (isPlainObject(template.metadata)) cleanMetadata(template.metadata as Json);
    if (isPlainObject(template.metadata) && Object.keys(template.metadata).length === 0) delete template.metadata;
    if (isPlainObject(template.spec)) cleanPodSpec(template.spec as Json);
  }
  if (Object.keys(spec).length === 0) delete object.spec;
  return object;
}
