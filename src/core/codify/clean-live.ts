// A resource created by hand in the cluster, cleaned of everything the API server added, so that
// the manifest written for it says only what a person would write.
import { escapeSegment, groupOf, isPlainObject, versionOf, type KubeObject } from '../model/index.js';
import {
  CONTAINER_DEFAULTS,
  defaultImagePullPolicy,
  DEFAULT_TOLERATIONS,
  FIELD_REF_API_VERSION,
  isBuiltInGroup,
  isServerSetAnnotation,
  keyFieldDefault,
  NAMESPACE_FINALIZERS,
  NAMESPACE_NAME_LABEL,
  POD_ADMISSION_DEFAULTS,
  POD_SERVER_FIELDS,
  POD_SPEC_DEFAULTS,
  PROBE_DEFAULTS,
  SERVICE_ACCOUNT_MOUNT_PATH,
  SERVICE_ACCOUNT_VOLUME_PREFIX,
  SERVICE_ALLOCATED_FIELDS,
  SERVICE_SPEC_DEFAULTS,
  withoutServerMetadata,
  withoutServerState,
  WORKLOAD_SPEC_DEFAULTS,
  type DefaultLookup,
} from '../k8s/index.js';

type Json = Record<string, unknown>;

/** Equal as JSON values, whatever the order of their map keys. */
function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** Removes each field of `target` that equals its default (defaults may nest: a partial match removes the matching part). */
function dropDefaults(target: Json, defaults: Readonly<Json>): void {
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
  if (container.imagePullPolicy === defaultImagePullPolicy(image)) delete container.imagePullPolicy;
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'])
    if (isPlainObject(container[probe])) dropDefaults(container[probe] as Json, PROBE_DEFAULTS);
  if (Array.isArray(container.ports)) container.ports.filter(isPlainObject).forEach(dropDefaultProtocol);
  if (Array.isArray(container.env)) {
    for (const env of container.env) {
      const fieldRef = isPlainObject(env) && isPlainObject(env.valueFrom) ? env.valueFrom.fieldRef : undefined;
      if (isPlainObject(fieldRef) && fieldRef.apiVersion === FIELD_REF_API_VERSION) delete fieldRef.apiVersion;
    }
  }
}

/** Removes what admission and the scheduler added: token volume and mounts, default tolerations, priority, node. */
function dropAdmitted(spec: Json): void {
  for (const field of POD_SERVER_FIELDS) delete spec[field];
  // The deprecated alias the server copies from serviceAccountName.
  const alias = spec.serviceAccountName === undefined || spec.serviceAccount === spec.serviceAccountName;
  if (spec.serviceAccount !== undefined && alias) delete spec.serviceAccount;
  dropDefaults(spec, POD_ADMISSION_DEFAULTS);
  // `priority` comes from priorityClassName: only the class is a person's.
  if (typeof spec.priority === 'number' && spec.priorityClassName !== undefined) delete spec.priority;
  if (Array.isArray(spec.tolerations)) {
    spec.tolerations = spec.tolerations.filter((t) => !DEFAULT_TOLERATIONS.some((d) => equal(d, t)));
    if ((spec.tolerations as unknown[]).length === 0) delete spec.tolerations;
  }
  const injected = (name: unknown): boolean =>
    typeof name === 'string' && name.startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX);
  if (Array.isArray(spec.volumes)) {
    spec.volumes = spec.volumes.filter((v) => !(isPlainObject(v) && injected(v.name) && isPlainObject(v.projected)));
    if ((spec.volumes as unknown[]).length === 0) delete spec.volumes;
  }
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const container of Array.isArray(spec[list]) ? (spec[list] as unknown[]).filter(isPlainObject) : []) {
      if (!Array.isArray(container.volumeMounts)) continue;
      container.volumeMounts = container.volumeMounts.filter(
        (m) => !(isPlainObject(m) && injected(m.name) && m.mountPath === SERVICE_ACCOUNT_MOUNT_PATH),
      );
      if ((container.volumeMounts as unknown[]).length === 0) delete container.volumeMounts;
    }
  }
}

function cleanPodSpec(spec: Json): void {
  dropAdmitted(spec);
  dropDefaults(spec, POD_SPEC_DEFAULTS);
  for (const list of ['containers', 'initContainers'])
    if (Array.isArray(spec[list])) (spec[list] as unknown[]).filter(isPlainObject).forEach(cleanContainer);
}

function cleanService(spec: Json): void {
  for (const allocated of SERVICE_ALLOCATED_FIELDS) delete spec[allocated];
  dropDefaults(spec, SERVICE_SPEC_DEFAULTS);
  if (Array.isArray(spec.ports)) {
    for (const port of spec.ports.filter(isPlainObject)) {
      dropDefaultProtocol(port);
      delete port.nodePort;
    }
  }
}

function podTemplateOf(spec: Json): Json | undefined {
  const template =
    isPlainObject(spec.jobTemplate) && isPlainObject(spec.jobTemplate.spec)
      ? spec.jobTemplate.spec.template
      : spec.template;
  return isPlainObject(template) ? template : undefined;
}

function dropDefaultProtocol(port: Json): void {
  if (port.protocol === keyFieldDefault('protocol')) delete port.protocol;
}

/** Metadata as a person writes it: no server-set fields or annotations, no controller ownership. */
function cleanMetadata(metadata: Json): Json {
  const cleaned = withoutServerMetadata(metadata);
  delete cleaned.ownerReferences;
  if (isPlainObject(cleaned.annotations)) {
    for (const name of Object.keys(cleaned.annotations)) {
      if (isServerSetAnnotation(name)) delete cleaned.annotations[name];
    }
    if (Object.keys(cleaned.annotations).length === 0) delete cleaned.annotations;
  }
  return cleaned;
}

/**
 * Drops the fields of a custom resource that hold the default its CRD gives them (the API server
 * filled them in; a person did not write them), at any depth, list items included.
 */
function dropCrdDefaults(object: KubeObject, defaults: DefaultLookup): void {
  const group = groupOf(object.apiVersion ?? '');
  const version = versionOf(object.apiVersion ?? '');
  const kind = object.kind ?? '';
  const walk = (node: unknown, pattern: string): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item, `${pattern}/*`));
    if (!isPlainObject(node)) return;
    for (const field of Object.keys(node)) {
      const at = `${pattern}/${escapeSegment(field)}`;
      const filled = defaults(group, kind, version, at);
      if (filled && equal(node[field], filled.value)) delete node[field];
      else walk(node[field], at);
    }
  };
  walk(object.spec, '/spec');
}

/**
 * A copy of `live` without status, server metadata, allocated values and recognisable defaults
 * (Kubernetes' own, and those its CRD gives a custom resource: `customDefaults`).
 */
export function cleanLiveObject(live: KubeObject, customDefaults?: DefaultLookup): KubeObject {
  const object = structuredClone(withoutServerState(live));
  object.metadata = cleanMetadata(object.metadata as Json);
  if (customDefaults && !isBuiltInGroup(groupOf(object.apiVersion ?? ''))) {
    dropCrdDefaults(object, customDefaults);
    if (isPlainObject(object.spec) && Object.keys(object.spec).length === 0) delete object.spec;
  }
  if (object.kind === 'Namespace') {
    const labels = object.metadata.labels;
    if (labels && labels[NAMESPACE_NAME_LABEL] === object.metadata.name) delete labels[NAMESPACE_NAME_LABEL];
    if (labels && Object.keys(labels).length === 0) delete object.metadata.labels;
    if (isPlainObject(object.spec) && equal(object.spec.finalizers, NAMESPACE_FINALIZERS)) delete object.spec;
  }
  const spec = isPlainObject(object.spec) ? (object.spec as Json) : undefined;
  if (!spec) return object;
  if (object.kind === 'Service') cleanService(spec);
  if (object.kind === 'Pod') cleanPodSpec(spec);
  const defaults = WORKLOAD_SPEC_DEFAULTS[object.kind];
  if (defaults) dropDefaults(spec, defaults);
  const template = podTemplateOf(spec);
  if (template) {
    if (isPlainObject(template.metadata)) template.metadata = cleanMetadata(template.metadata as Json);
    if (isPlainObject(template.metadata) && Object.keys(template.metadata).length === 0) delete template.metadata;
    if (isPlainObject(template.spec)) cleanPodSpec(template.spec as Json);
  }
  if (Object.keys(spec).length === 0) delete object.spec;
  return object;
}
