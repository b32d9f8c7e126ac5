// Argo CD's settings from `argocd-cm` (util/settings/settings.go): the tracking method
// (`application.resourceTrackingMethod`, empty = `annotation` since 3.0, `label` before: util/argo
// resource_tracking.go GetTrackingMethod; the version is read from argocd-cm's `app.kubernetes.io/version`
// label or the application controller's image tag, and taken as 3.x when neither shows it), the label key
// (`application.instanceLabelKey`, empty = the default instance label), the installation id, and the
// system-wide ignoreDifferences of `resource.customizations` (the whole key and the split keys
// `resource.customizations.ignoreDifferences.<group_kind>`, `all` = every kind). The ConfigMap's
// namespace is the control plane's: Applications elsewhere are tracked as `<ns>_<name>`. A cluster
// may run several instances: each reads the Applications of its own namespace and of the namespaces
// `application.namespaces` of its `argocd-cmd-params-cm` names (Applications in any namespace).
// `resource.compareoptions` (GetResourceOverrides): `ignoreResourceStatusField` adds `/status` to the
// overrides of CustomResourceDefinitions (`crd`, the default, with `/spec/preserveUnknownFields`) or of
// every kind (`all`); `off`/`false` adds nothing.
import { parse } from 'yaml';
import { isPlainObject, type KubeObject } from '../model/index.js';
import { stringAt, stringList } from './fields.js';
import {
  DEFAULT_ARGO_COMPARE_OPTIONS,
  DEFAULT_ARGO_TRACKING,
  readsApplicationsOf,
  type ArgoCompareOptions,
  type ArgoTracking,
  type TrackingMethod,
} from './identity.js';
import type { IgnoreDifference } from './types.js';

const METHODS: ReadonlySet<string> = new Set(['label', 'annotation', 'annotation+label']);
const CUSTOMIZATIONS = 'resource.customizations';

function isConfigMap(obj: KubeObject, name: string): boolean {
  return obj.kind === 'ConfigMap' && obj.apiVersion === 'v1' && obj.metadata?.name === name;
}

/**
 * Reads `argocd-cm` from the snapshot's objects (the one in `argocd` first); Argo CD 3's defaults without one.
 * With several instances it carries them all: live stamps are then read with each instance's settings.
 */
export function readArgoSettings(live: readonly KubeObject[]): ArgoTracking {
  const instances = readArgoInstances(live);
  const chosen = instances.find((cm) => cm.controlPlaneNamespace === 'argocd') ?? instances[0] ?? DEFAULT_ARGO_TRACKING;
  return instances.length > 1 ? { ...chosen, instances } : chosen;
}

/** Every Argo CD instance the snapshot shows (one per `argocd-cm`), with its settings. */
export function readArgoInstances(live: readonly KubeObject[]): ArgoTracking[] {
  const params = new Map<string, string[]>();
  for (const obj of live) {
    if (!isConfigMap(obj, 'argocd-cmd-params-cm')) continue;
    const value = stringAt(obj, 'data', 'application.namespaces') ?? '';
    const globs = value.split(',').map((namespace) => namespace.trim());
    params.set(obj.metadata?.namespace ?? '', globs.filter(Boolean));
  }
  return live
    .filter((obj) => isConfigMap(obj, 'argocd-cm'))
    .map((cm) => instanceOf(cm, params, majorVersion(cm, live)));
}

const CONTROLLER = 'argocd-application-controller';
const VERSION = /^v?(\d+)\.\d+/;

/**
 * The instance's Argo CD major version: argocd-cm's `app.kubernetes.io/version` label (the Helm chart sets
 * it), else the tag of its application controller's image (`quay.io/argoproj/argocd:v2.14.2`); undefined
 * when neither shows it.
 */
function majorVersion(cm: KubeObject, live: readonly KubeObject[]): number | undefined {
  const label = cm.metadata?.labels?.['app.kubernetes.io/version'];
  const namespace = cm.metadata?.namespace;
  const controller = live.find(
    (obj) =>
      (obj.kind === 'StatefulSet' || obj.kind === 'Deployment') &&
      obj.metadata?.namespace === namespace &&
      obj.metadata?.name === CONTROLLER,
  );
  const spec = isPlainObject(controller?.spec) ? controller.spec : {};
  const template = isPlainObject(spec.template) && isPlainObject(spec.template.spec) ? spec.template.spec : {};
  const containers = Array.isArray(template.containers) ? template.containers : [];
  const image = containers.map((c) => (isPlainObject(c) ? c.image : undefined)).find((i) => typeof i === 'string');
  const tag = typeof image === 'string' && image.includes(':') ? image.slice(image.lastIndexOf(':') + 1) : undefined;
  const major = VERSION.exec(label ?? '')?.[1] ?? VERSION.exec(tag ?? '')?.[1];
  return major === undefined ? undefined : Number(major);
}

/** `application.resourceTrackingMethod` unset: `label` before Argo CD 3.0, `annotation` since (and when unknown). */
function defaultMethod(major: number | undefined): TrackingMethod {
  return major !== undefined && major < 3 ? 'label' : 'annotation';
}

function instanceOf(cm: KubeObject, params: ReadonlyMap<string, string[]>, major?: number): ArgoTracking {
  const method = stringAt(cm, 'data', 'application.resourceTrackingMethod');
  const namespace = cm.metadata?.namespace || DEFAULT_ARGO_TRACKING.controlPlaneNamespace;
  const settings: ArgoTracking = {
    trackingMethod: method && METHODS.has(method) ? (method as TrackingMethod) : defaultMethod(major),
    instanceLabelKey: stringAt(cm, 'data', 'application.instanceLabelKey') || DEFAULT_ARGO_TRACKING.instanceLabelKey,
    controlPlaneNamespace: namespace,
    from: 'argocd-cm',
  };
  const installationID = stringAt(cm, 'data', 'installationID');
  if (installationID) settings.installationID = installationID;
  const applicationNamespaces = params.get(namespace) ?? [];
  if (applicationNamespaces.length) settings.applicationNamespaces = applicationNamespaces;
  const data = isPlainObject(cm.data) ? cm.data : {};
  const { rules, problems } = customIgnoreDifferences(data);
  const compare = compareOptions(data);
  if (compare.problem) problems.push(compare.problem);
  settings.compareOptions = compare.options;
  rules.push(...statusRules(compare.options));
  if (rules.length) settings.ignoreDifferences = rules;
  if (problems.length) settings.problems = problems;
  const buildOptions = stringAt(cm, 'data', 'kustomize.buildOptions');
  if (buildOptions) settings.kustomizeBuildOptions = buildOptions;
  return settings;
}

/**
 * The instance that reads Applications of `namespace`: the one whose control plane runs there, else
 * one whose `application.namespaces` matches it; undefined when none does.
 */
export function argoInstanceFor(instances: readonly ArgoTracking[], namespace: string): ArgoTracking | undefined {
  const own = instances.find((instance) => instance.controlPlaneNamespace === namespace);
  return own ?? instances.find((instance) => readsApplicationsOf(instance, namespace));
}

const COMPARE_OPTIONS = 'resource.compareoptions';
const STATUS_FIELD: Readonly<Record<string, ArgoCompareOptions['ignoreResourceStatusField']>> = {
  '': 'crd',
  crd: 'crd',
  all: 'all',
  off: 'off',
  false: 'off',
};

/** `resource.compareoptions` over Argo CD's defaults (a value it does not know: `crd`, as Argo CD warns). */
function compareOptions(data: Record<string, unknown>): { options: ArgoCompareOptions; problem?: string } {
  const text = data[COMPARE_OPTIONS];
  const read = typeof text === 'string' ? readYaml(text, COMPARE_OPTIONS) : { value: {} };
  if ('problem' in read)
    return {
      options: DEFAULT_ARGO_COMPARE_OPTIONS,
      problem: `${read.problem}; Argo CD fails to read its resource overrides (GetResourceOverrides), driftback uses the default compare options`,
    };
  const { value } = read;
  const given = value.ignoreResourceStatusField;
  const status = typeof given === 'string' || typeof given === 'boolean' ? String(given) : '';
  const options: ArgoCompareOptions = {
    ignoreAggregatedRoles: value.ignoreAggregatedRoles === true,
    ignoreResourceStatusField: STATUS_FIELD[status] ?? 'crd',
    ignoreDifferencesOnResourceUpdates: value.ignoreDifferencesOnResourceUpdates === true,
  };
  if (Object.hasOwn(STATUS_FIELD, status)) return { options };
  const problem = `argocd-cm ${COMPARE_OPTIONS} ignoreResourceStatusField: ${status} is not crd, all or off; Argo CD ignores the status of CustomResourceDefinitions only`;
  return { options, problem };
}

/** The overrides `ignoreResourceStatusField` adds (addStatusOverrideToGK, addIgnoreDiffItemOverrideToGK). */
function statusRules(options: ArgoCompareOptions): IgnoreDifference[] {
  const rule = (group: string, kind: string, jsonPointers: string[]): IgnoreDifference => ({
    group,
    kind,
    jsonPointers,
    jqPathExpressions: [],
    managedFieldsManagers: [],
  });
  if (options.ignoreResourceStatusField === 'all') return [rule('*', '*', ['/status'])];
  if (options.ignoreResourceStatusField === 'off') return [];
  return [rule('apiextensions.k8s.io', 'CustomResourceDefinition', ['/status', '/spec/preserveUnknownFields'])];
}

/** `resource.customizations` (a map of `group/kind` or `kind`) and its split keys, as Argo CD merges them. */
function customIgnoreDifferences(data: Record<string, unknown>): { rules: IgnoreDifference[]; problems: string[] } {
  const overrides = new Map<string, unknown>();
  const problems: string[] = [];
  const text = data[CUSTOMIZATIONS];
  const whole = typeof text === 'string' ? readYaml(text, CUSTOMIZATIONS) : { value: {} };
  const notApplied = (problem: string): string => `${problem}; its ignoreDifferences are not applied`;
  if ('problem' in whole) problems.push(notApplied(whole.problem));
  else for (const [key, value] of Object.entries(whole.value)) overrides.set(key, field(value, 'ignoreDifferences'));
  for (const [key, value] of Object.entries(data)) {
    const parts = key.split('.');
    if (parts.length < 4 || `${parts[0]}.${parts[1]}` !== CUSTOMIZATIONS || parts[2] !== 'ignoreDifferences') continue;
    const groupKind = parts.slice(3).join('.');
    const split = groupKind.split('_');
    if (split.length > 2 || !groupKind) continue;
    const read = typeof value === 'string' ? readYaml(value, key) : { value: {} };
    if ('problem' in read) problems.push(notApplied(read.problem));
    else overrides.set(groupKind === 'all' ? '*/*' : split.join('/'), read.value);
  }
  const rules = [...overrides].flatMap(([key, value]) => overrideRule(key, value));
  return { rules, problems };
}

function field(value: unknown, name: string): unknown {
  return isPlainObject(value) ? value[name] : undefined;
}

function readYaml(text: string, key: string): { value: Record<string, unknown> } | { problem: string } {
  try {
    const value: unknown = parse(text);
    return { value: isPlainObject(value) ? value : {} };
  } catch (error) {
    return { problem: `argocd-cm ${key} is not YAML: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** One override as an ignoreDifferences entry (`getGroupKindForOverrideKey`: `<group>/<kind>` or `<kind>`). */
function overrideRule(key: string, value: unknown): IgnoreDifference[] {
  if (!isPlainObject(value)) return [];
  const parts = key.split('/');
  if (parts.length > 2) return [];
  const rule: IgnoreDifference = {
    group: parts.length === 2 ? parts[0]! : '',
    kind: parts[parts.length - 1]!,
    jsonPointers: stringList(value.jsonPointers),
    jqPathExpressions: stringList(value.jqPathExpressions),
    managedFieldsManagers: stringList(value.managedFieldsManagers),
  };
  const empty = rule.jsonPointers.length + rule.jqPathExpressions.length + rule.managedFieldsManagers.length === 0;
  return empty ? [] : [rule];
}
