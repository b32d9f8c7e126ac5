// The one home of a GitOps source's identity: SourceRef {controller, group, kind, namespace, name}, its
// text form, and the stamps each controller writes on what it applies — written into desired by the
// render, read back from live objects by ownership, prune, suspensions and the diff. Every stamp key is
// spelled here and nowhere else, so the render, the plan and the emergency procedure cannot disagree.
// Flux: kustomize-controller labels `kustomize.toolkit.fluxcd.io/name|namespace` (fluxcd/pkg ssa/manager.go
// SetOwnerLabels); helm-controller `helm.toolkit.fluxcd.io/name|namespace` (internal/postrender/build.go).
// Argo CD (argo-cd util/argo/resource_tracking.go, common/common.go): label tracking sets the instance
// label to the app's instance name, untruncated; annotation tracking sets `argocd.argoproj.io/tracking-id`
// to `<app>:<group>/<kind>:<namespace>/<name>` (and `argocd.argoproj.io/installation-id` when set);
// annotation+label sets both, the label truncated to 63 characters. The instance name is `<ns>_<name>` for
// an Application outside the control plane's namespace (`Application.InstanceName`, application.namespaces).
import {
  displayKey,
  keyOf,
  type DesiredObject,
  type FieldSource,
  type KubeObject,
  type ResourceKey,
} from '../model/index.js';
import { compileArgoGlob, compileRe2 } from '../patterns/index.js';
import { setMetadataKey, type MetadataMap } from './stamp-metadata.js';
import type { IgnoreDifference } from './types.js';

/** Which GitOps controller applies a source. `kubectl`: no controller, the cluster path applied from CI. */
export type ControllerName = 'flux' | 'argocd' | 'kubectl';

/** The controller objects that apply Git: `Cluster` names the config's cluster path under kubectl. */
export type SourceRefKind = 'Kustomization' | 'HelmRelease' | 'Application' | 'Cluster';

/** A GitOps source: the controller object (its group, kind, namespace, name) and the controller it belongs to. */
export interface SourceRef {
  controller: ControllerName;
  /** The controller object's API group; `''` for the kubectl cluster path. */
  group: string;
  kind: SourceRefKind;
  /** `''` for the kubectl cluster path. */
  namespace: string;
  /** The object's name; the cluster's name for the kubectl cluster path. */
  name: string;
}

export const FLUX_KUSTOMIZE_GROUP = 'kustomize.toolkit.fluxcd.io';
export const FLUX_HELM_GROUP = 'helm.toolkit.fluxcd.io';
export const ARGO_APPLICATION_GROUP = 'argoproj.io';

const FLUX_KUSTOMIZATION = { controller: 'flux', group: FLUX_KUSTOMIZE_GROUP, kind: 'Kustomization' } as const;
const FLUX_HELMRELEASE = { controller: 'flux', group: FLUX_HELM_GROUP, kind: 'HelmRelease' } as const;
const ARGO_APPLICATION = { controller: 'argocd', group: ARGO_APPLICATION_GROUP, kind: 'Application' } as const;

/** The text form of a source, one for every use: `Kustomization/flux-system/apps`, `Cluster/prod-eu`. */
export function sourceRefText(ref: SourceRef): string {
  return displayKey(sourceRefKey(ref));
}

/** How a list of sources names one: `flux-system/apps`; the cluster's name under kubectl. */
export function sourceName(ref: SourceRef): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

const CONTROLLER_WORDS: Record<ControllerName, string> = { flux: 'Flux', argocd: 'Argo CD', kubectl: 'kubectl' };

/** A source in a sentence: `Flux Kustomization flux-system/apps`, `kubectl applying cluster prod-eu's path`. */
export function describeSource(ref: SourceRef): string {
  if (ref.controller === 'kubectl') return `kubectl applying cluster ${ref.name}'s path`;
  return `${CONTROLLER_WORDS[ref.controller]} ${ref.kind} ${sourceName(ref)}`;
}

/** The key of the controller object a source is. */
export function sourceRefKey(ref: SourceRef): ResourceKey {
  return { group: ref.group, kind: ref.kind, namespace: ref.namespace, name: ref.name };
}

/** Whether two refs name the same source. */
export function sameSource(a: SourceRef, b: SourceRef): boolean {
  return a.group === b.group && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
}

/** The source a controller object is (Flux Kustomization or HelmRelease, Argo CD Application), or undefined. */
export function sourceRefOf(object: KubeObject): SourceRef | undefined {
  const key = keyOf(object);
  for (const kind of [FLUX_KUSTOMIZATION, FLUX_HELMRELEASE, ARGO_APPLICATION]) {
    if (key.group === kind.group && key.kind === kind.kind)
      return { ...kind, namespace: key.namespace, name: key.name };
  }
  return undefined;
}

export function fluxKustomizationRef(namespace: string, name: string): SourceRef {
  return { ...FLUX_KUSTOMIZATION, namespace, name };
}

export function fluxHelmReleaseRef(namespace: string, name: string): SourceRef {
  return { ...FLUX_HELMRELEASE, namespace, name };
}

export function argoApplicationRef(namespace: string, name: string): SourceRef {
  return { ...ARGO_APPLICATION, namespace, name };
}

export function kubectlRef(cluster: string): SourceRef {
  return { controller: 'kubectl', group: '', kind: 'Cluster', namespace: '', name: cluster };
}

// ------------------------------------------------------------------------------------- tracking

export type TrackingMethod = 'label' | 'annotation' | 'annotation+label';

/** The Argo CD label key when `application.instanceLabelKey` is empty (common.LabelKeyAppInstance). */
export const ARGO_INSTANCE_LABEL = 'app.kubernetes.io/instance';
const ARGO_TRACKING_ANNOTATION = 'argocd.argoproj.io/tracking-id';
/**
 * The finalizer that makes deleting an Application delete what it deployed (cascade); `/foreground` and
 * `/background` name the propagation policy (pkg/apis/application/v1alpha1 ResourcesFinalizerName).
 */
export const ARGO_RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

const ARGO_INSTALLATION_ANNOTATION = 'argocd.argoproj.io/installation-id';

/** How an Argo CD installation tracks what it applies (argocd-cm), and where its control plane runs. */
export interface ArgoTracking {
  trackingMethod: TrackingMethod;
  instanceLabelKey: string;
  installationID?: string;
  /** Namespace of the control plane (of argocd-cm): Applications elsewhere are tracked as `<ns>_<name>`. */
  controlPlaneNamespace: string;
  /** `defaults`: argocd-cm is not in view, so the method is Argo CD 3's default, not known. */
  from: 'argocd-cm' | 'defaults';
  /** Namespaces (globs) whose Applications this instance reads besides its own (`application.namespaces`). */
  applicationNamespaces?: string[];
  /** System-wide ignoreDifferences (`resource.customizations`): every Application of the instance. */
  ignoreDifferences?: IgnoreDifference[];
  /** What of argocd-cm could not be read (a customization that is not YAML). */
  problems?: string[];
  /** argocd-cm `kustomize.buildOptions` (`--enable-helm` inflates helmCharts), when set. */
  kustomizeBuildOptions?: string;
  /** argocd-cm `resource.compareoptions`; Argo CD's defaults when unset. */
  compareOptions?: ArgoCompareOptions;
  /**
   * Every instance in the cluster when there are several: a live object's stamps are read with each
   * instance's own settings, and name the Application of the instance that reads its namespace.
   */
  instances?: ArgoTracking[];
}

/**
 * argocd-cm `resource.compareoptions` (util/settings/settings.go ArgoCDDiffOptions, GetResourceOverrides):
 * `ignoreResourceStatusField` `crd` (unset or unrecognised: the status of CustomResourceDefinitions), `all`
 * (every object's status) or `off` (`off`/`false`: Argo CD compares the status Git declares);
 * `ignoreAggregatedRoles` (the rules of a ClusterRole with an aggregationRule); and
 * `ignoreDifferencesOnResourceUpdates`, which only decides what resource updates refresh an Application
 * (GetIgnoreResourceUpdatesOverrides), never what the comparison shows.
 */
export interface ArgoCompareOptions {
  ignoreAggregatedRoles: boolean;
  ignoreResourceStatusField: 'crd' | 'all' | 'off';
  ignoreDifferencesOnResourceUpdates: boolean;
}

export const DEFAULT_ARGO_COMPARE_OPTIONS: ArgoCompareOptions = {
  ignoreAggregatedRoles: false,
  ignoreResourceStatusField: 'crd',
  ignoreDifferencesOnResourceUpdates: false,
};

export const DEFAULT_ARGO_TRACKING: ArgoTracking = {
  trackingMethod: 'annotation',
  instanceLabelKey: ARGO_INSTANCE_LABEL,
  controlPlaneNamespace: 'argocd',
  from: 'defaults',
};

/** The name Argo CD tracks an Application by: its name, or `<namespace>_<name>` outside the control plane's namespace. */
export function argoInstanceName(ref: SourceRef, controlPlaneNamespace: string): string {
  return ref.namespace && ref.namespace !== controlPlaneNamespace ? `${ref.namespace}_${ref.name}` : ref.name;
}

/** The Application an instance name names (`argo.ParseInstanceName`): `ns_name`, or a name in the control plane. */
function applicationOfInstance(instance: string, controlPlaneNamespace: string): SourceRef | undefined {
  if (!instance) return undefined;
  const at = instance.indexOf('_');
  return at < 0
    ? argoApplicationRef(controlPlaneNamespace, instance)
    : argoApplicationRef(instance.slice(0, at), instance.slice(at + 1));
}

/** A label value as annotation+label tracking writes it: at most 63 characters, no trailing non-alphanumerics. */
function truncatedLabel(value: string): string {
  return value.length <= 63 ? value : value.slice(0, 63).replace(/[^A-Za-z0-9]+$/, '');
}

/** `<app>:<group>/<kind>:<namespace>/<name>` split as ParseAppInstanceValue splits it; undefined when malformed. */
function parseTrackingId(value: string): { app: string; key: ResourceKey } | undefined {
  const first = value.indexOf(':');
  const second = first < 0 ? -1 : value.indexOf(':', first + 1);
  if (second < 0) return undefined;
  const groupKind = value.slice(first + 1, second).split('/');
  const namespaceName = value.slice(second + 1).split('/');
  if (groupKind.length !== 2 || namespaceName.length !== 2) return undefined;
  const [group, kind] = groupKind as [string, string];
  const [namespace, name] = namespaceName as [string, string];
  return { app: value.slice(0, first), key: { group, kind, namespace, name } };
}

// ------------------------------------------------------------------------------------- writers

/** One stamp: a label or annotation a controller sets on an object it applies. */
export interface Stamp {
  map: MetadataMap;
  key: string;
  value: string;
}

/** The labels Flux stamps, by the kind of the object that applied: `<its group>/name`, `<its group>/namespace`. */
const FLUX_STAMP_LABELS: Record<'Kustomization' | 'HelmRelease', { name: string; namespace: string }> = {
  Kustomization: { name: 'kustomize.toolkit.fluxcd.io/name', namespace: 'kustomize.toolkit.fluxcd.io/namespace' },
  HelmRelease: { name: 'helm.toolkit.fluxcd.io/name', namespace: 'helm.toolkit.fluxcd.io/namespace' },
};

/** The Flux stamps of a Kustomization or HelmRelease. */
function fluxStamps(ref: SourceRef): Stamp[] {
  if (ref.kind !== 'Kustomization' && ref.kind !== 'HelmRelease') return [];
  const labels = FLUX_STAMP_LABELS[ref.kind];
  return [
    { map: 'labels', key: labels.name, value: ref.name },
    { map: 'labels', key: labels.namespace, value: ref.namespace },
  ];
}

/**
 * Argo CD's stamps on `target` by its tracking method. A CRD gets no tracking annotation
 * (reposerver/repository/repository.go: `!kube.IsCRD(target)`); a cluster-scoped object's tracking id names
 * the destination namespace (UnstructuredToAppInstanceValue).
 */
function argoStamps(
  ref: SourceRef,
  target: ResourceKey,
  tracking: ArgoTracking,
  destinationNamespace: string | undefined,
): Stamp[] {
  const app = argoInstanceName(ref, tracking.controlPlaneNamespace);
  const method = tracking.trackingMethod;
  const label = tracking.instanceLabelKey;
  if (method === 'label') return [{ map: 'labels', key: label, value: app }];
  const stamps: Stamp[] =
    method === 'annotation+label' ? [{ map: 'labels', key: label, value: truncatedLabel(app) }] : [];
  if (target.group === 'apiextensions.k8s.io' && target.kind === 'CustomResourceDefinition') return stamps;
  // Keyed without a namespace = cluster-scoped, as the cluster says (kind-scopes.ts).
  const namespace = target.namespace === '' ? (destinationNamespace ?? '') : target.namespace;
  const trackingId = `${app}:${target.group}/${target.kind}:${namespace}/${target.name}`;
  stamps.push({ map: 'annotations', key: ARGO_TRACKING_ANNOTATION, value: trackingId });
  if (tracking.installationID) {
    stamps.push({ map: 'annotations', key: ARGO_INSTALLATION_ANNOTATION, value: tracking.installationID });
  }
  return stamps;
}

/** Every stamp `ref`'s controller writes on `target` when it applies it. */
export function stampsFor(
  ref: SourceRef,
  target: ResourceKey,
  tracking: ArgoTracking = DEFAULT_ARGO_TRACKING,
  destinationNamespace?: string,
): Stamp[] {
  if (ref.controller === 'flux') return fluxStamps(ref);
  if (ref.controller === 'argocd') return argoStamps(ref, target, tracking, destinationNamespace);
  return [];
}

/** Writes a source's stamps into a desired object, each with `source` as its origin. */
export function stampDesired(
  desired: DesiredObject,
  ref: SourceRef,
  source: FieldSource,
  tracking?: ArgoTracking,
  destinationNamespace?: string,
): void {
  for (const stamp of stampsFor(ref, desired.key, tracking, destinationNamespace)) {
    setMetadataKey(desired, stamp.map, stamp.key, stamp.value, source);
  }
}

// ------------------------------------------------------------------------------------- readers

function fluxStamped(labels: Record<string, string>, kind: typeof FLUX_KUSTOMIZATION | typeof FLUX_HELMRELEASE) {
  const keys = FLUX_STAMP_LABELS[kind.kind];
  const name = labels[keys.name];
  const namespace = labels[keys.namespace];
  return typeof name === 'string' && name && typeof namespace === 'string' ? { ...kind, namespace, name } : undefined;
}

/** Whether the object's tracking id names the object itself (Argo CD ignores a copied one: isSelfReferencedObj). */
function namesItself(object: KubeObject, key: ResourceKey): boolean {
  const own = keyOf(object);
  // An object the server stored in no namespace is cluster-scoped.
  const namespaceOk = own.namespace === '' || own.namespace === key.namespace;
  return own.group === key.group && own.kind === key.kind && own.name === key.name && namespaceOk;
}

/**
 * Whether an Argo CD namespace list (`application.namespaces`, `applicationsetcontroller.namespaces`) names
 * `namespace` (util/glob MatchStringInList with REGEXP): an entry wrapped in `/` is a regular expression
 * found anywhere in it, and every entry is also a glob.
 */
export function namespaceListNames(list: readonly string[], namespace: string): boolean {
  return list.some((entry) => {
    if (entry.length > 1 && entry.startsWith('/') && entry.endsWith('/')) {
      const regex = compileRe2(entry.slice(1, -1));
      if (regex.ok && regex.pattern.test(namespace)) return true;
    }
    const compiled = compileArgoGlob(entry);
    return compiled.ok ? compiled.pattern.test(namespace) : entry === namespace;
  });
}

/** Whether an instance reads the Applications of `namespace`: its own, or one `application.namespaces` names. */
export function readsApplicationsOf(instance: ArgoTracking, namespace: string): boolean {
  if (instance.controlPlaneNamespace === namespace) return true;
  return namespaceListNames(instance.applicationNamespaces ?? [], namespace);
}

/**
 * The Application an object's Argo CD stamps name. With several instances each reads the stamps with its
 * own settings (tracking method, label key, installation id; its controller's `GetAppName`), and an
 * Application counts only for the instance that reads its namespace.
 */
function argoStamped(object: KubeObject, tracking: ArgoTracking): SourceRef | undefined {
  const instances = tracking.instances;
  if (!instances || instances.length < 2) return argoStampedBy(object, tracking);
  for (const instance of instances) {
    const ref = argoStampedBy(object, instance);
    if (ref && readsApplicationsOf(instance, ref.namespace)) return ref;
  }
  return undefined;
}

/** The Application an object's Argo CD stamps name under one instance's settings (GetAppName), or undefined. */
function argoStampedBy(object: KubeObject, tracking: ArgoTracking): SourceRef | undefined {
  const labels = object.metadata?.labels ?? {};
  const annotations = object.metadata?.annotations ?? {};
  const installation = annotations[ARGO_INSTALLATION_ANNOTATION];
  if (tracking.installationID && installation !== tracking.installationID) return undefined;
  const trackingId = annotations[ARGO_TRACKING_ANNOTATION];
  const parsed = typeof trackingId === 'string' ? parseTrackingId(trackingId) : undefined;
  if (parsed && namesItself(object, parsed.key)) {
    return applicationOfInstance(parsed.app, tracking.controlPlaneNamespace);
  }
  const label = labels[tracking.instanceLabelKey];
  // Under annotation tracking (Argo CD 3's default, assumed while argocd-cm is out of view) the instance
  // label is no stamp: charts and installs set the same label themselves (Flux's: `flux-system`).
  if (typeof label !== 'string' || tracking.trackingMethod !== 'label') return undefined;
  return applicationOfInstance(label, tracking.controlPlaneNamespace);
}

/** Every source an object's own stamps name: its Flux Kustomization, HelmRelease, Argo CD Application. */
export function stampedRefs(object: KubeObject, tracking: ArgoTracking = DEFAULT_ARGO_TRACKING): SourceRef[] {
  const labels = object.metadata?.labels ?? {};
  const refs: SourceRef[] = [];
  const kustomization = fluxStamped(labels, FLUX_KUSTOMIZATION);
  if (kustomization) refs.push(kustomization);
  const release = fluxStamped(labels, FLUX_HELMRELEASE);
  if (release) refs.push(release);
  const application = argoStamped(object, tracking);
  if (application) refs.push(application);
  return refs;
}

/** The source (Flux Kustomization or Argo CD Application) that applies an object, by its stamps. */
export function stampedSource(object: KubeObject, tracking?: ArgoTracking): SourceRef | undefined {
  return stampedRefs(object, tracking).find((ref) => ref.kind !== 'HelmRelease');
}

/** The Flux HelmRelease whose chart output an object is, by helm-controller's stamps. */
export function stampedHelmRelease(object: KubeObject): SourceRef | undefined {
  return fluxStamped(object.metadata?.labels ?? {}, FLUX_HELMRELEASE);
}

/** Whether an object's stamps name `ref`. */
export function isStampedBy(object: KubeObject, ref: SourceRef, tracking?: ArgoTracking): boolean {
  return stampedRefs(object, tracking).some((stamped) => sameSource(stamped, ref));
}

/**
 * Whether `metadata.<map>.<key>` is a key some controller stamps: what a live object carries there is the
 * controller's, written at apply time, whether or not the controller object is in view.
 */
export function isStampKey(map: string, key: string, tracking: ArgoTracking = DEFAULT_ARGO_TRACKING): boolean {
  if (map === 'annotations') return key === ARGO_TRACKING_ANNOTATION || key === ARGO_INSTALLATION_ANNOTATION;
  if (map !== 'labels') return false;
  if (key === tracking.instanceLabelKey || key === ARGO_INSTANCE_LABEL) return true;
  if (tracking.instances?.some((instance) => instance.instanceLabelKey === key)) return true;
  return Object.values(FLUX_STAMP_LABELS).some((labels) => key === labels.name || key === labels.namespace);
}

/**
 * The stamps a live object carries as its controller wrote them, each `<map>/<key>`: Flux's labels, Argo CD's
 * tracking annotation and installation id, and the instance label when it is Argo CD's. The label is a stamp
 * when argocd-cm says label tracking, or — argocd-cm out of view — when the object's own stamps show it: the
 * label is the tracking id's app name as annotation+label writes it, or an object a GitOps applier wrote
 * carries the label and no tracking id nor Flux stamp (label tracking, Argo CD's default before 3.0).
 * Whether or not the controller object is in view: what these keys hold is the controller's, never drift.
 */
export function liveStampKeys(object: KubeObject, tracking: ArgoTracking, appliedByGitOps: boolean): Set<string> {
  const labels = object.metadata?.labels ?? {};
  const annotations = object.metadata?.annotations ?? {};
  const keys = new Set<string>();
  for (const kind of [FLUX_KUSTOMIZATION, FLUX_HELMRELEASE]) {
    if (!fluxStamped(labels, kind)) continue;
    const stamp = FLUX_STAMP_LABELS[kind.kind];
    keys.add(`labels/${stamp.name}`).add(`labels/${stamp.namespace}`);
  }
  const trackingId = annotations[ARGO_TRACKING_ANNOTATION];
  const parsed = typeof trackingId === 'string' ? parseTrackingId(trackingId) : undefined;
  if (parsed) keys.add(`annotations/${ARGO_TRACKING_ANNOTATION}`);
  if (annotations[ARGO_INSTALLATION_ANNOTATION] !== undefined) keys.add(`annotations/${ARGO_INSTALLATION_ANNOTATION}`);
  const stampedFirst = keys.size === 0;
  for (const instance of tracking.instances ?? [tracking]) {
    const label = labels[instance.instanceLabelKey];
    if (typeof label !== 'string') continue;
    const byMethod = instance.from === 'argocd-cm' && instance.trackingMethod !== 'annotation';
    const shownByAnnotation = parsed !== undefined && label === truncatedLabel(parsed.app);
    const shownByApplier = appliedByGitOps && trackingId === undefined && stampedFirst;
    if (byMethod || (instance.from === 'defaults' && (shownByAnnotation || shownByApplier))) {
      keys.add(`labels/${instance.instanceLabelKey}`);
    }
  }
  return keys;
}
