// An Argo CD Application (argoproj.io/v1alpha1) read as a source: `spec.source` (or the first of
// `spec.sources`) path, directory and kustomize options, destination, sync policy, ignoreDifferences
// (pkg/apis/application/v1alpha1/types.go) and, from a live object, its status.
import { argoApplicationHealth } from '../health/gitops.js';
import { isPlainObject, type KubeObject } from '../model/index.js';
import { field, listAt, optionalString, repositoryPath, stringAt, stringList, stringMap } from './fields.js';
import { argoInventory } from './inventory.js';
import { parseImageOverride, readPatches } from './transform-entries.js';
import { argoApplicationRef, ARGO_APPLICATION_GROUP } from './identity.js';
import type { ArgoKustomizeOverrides, ArgoTransforms, IgnoreDifference, Source, SourceStatus } from './types.js';

export function isArgoApplication(obj: KubeObject): boolean {
  return obj.kind === 'Application' && (obj.apiVersion ?? '').startsWith(`${ARGO_APPLICATION_GROUP}/`);
}

/** The Application's one source: `spec.source`, or the first of `spec.sources` (multi-source apps). */
function applicationSource(spec: Record<string, unknown>): Record<string, unknown> {
  if (isPlainObject(spec.source)) return spec.source;
  const first = Array.isArray(spec.sources) ? spec.sources[0] : undefined;
  return isPlainObject(first) ? first : {};
}

/** The Argo CD Application as a source; `live` adds its status. */
export function readArgoApplication(obj: KubeObject, live: boolean): Source {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const appSource = applicationSource(spec);
  const source: Source = {
    id: argoApplicationRef(obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''),
    origin: {
      type: 'git',
      repoURL: stringAt(appSource, 'repoURL') ?? '',
      ...(typeof appSource.targetRevision === 'string' ? { targetRevision: appSource.targetRevision } : {}),
      ...(typeof appSource.chart === 'string' ? { chart: appSource.chart } : {}),
    },
    transforms: argoTransforms(spec, appSource),
  };
  // A chart from a Helm repository has no path; `path: .` (or none, with a repoURL) is the root.
  if (typeof appSource.chart !== 'string') source.path = repositoryPath(stringAt(appSource, 'path') ?? '');
  if (live) source.status = argoStatus(obj);
  return source;
}

function argoTransforms(spec: Record<string, unknown>, appSource: Record<string, unknown>): ArgoTransforms {
  const automated = field(spec, 'syncPolicy', 'automated');
  // 3.x: `automated.enabled: false` turns automation off with the block kept (`IsAutomatedSyncEnabled`).
  const automatedOn = isPlainObject(automated) && automated.enabled !== false;
  const transforms: ArgoTransforms = {
    controller: 'argocd',
    ...(isPlainObject(appSource.helm) ? { helm: appSource.helm } : {}),
    destination: {},
    syncPolicy: {
      automated: automatedOn,
      prune: automatedOn && automated.prune === true,
      selfHeal: automatedOn && automated.selfHeal === true,
      syncOptions: stringList(field(spec, 'syncPolicy', 'syncOptions')),
    },
    ignoreDifferences: listAt(spec, 'ignoreDifferences').flatMap(readIgnoreDifference),
  };
  // An empty project is the `default` one (ApplicationSpec.GetProject).
  const project = optionalString(spec.project);
  if (project) transforms.project = project;
  for (const name of ['namespace', 'server', 'name'] as const) {
    const value = optionalString(field(spec, 'destination', name));
    if (value !== undefined) transforms.destination[name] = value;
  }
  if (isPlainObject(appSource.directory)) {
    const directory = appSource.directory;
    transforms.directory = { recurse: directory.recurse === true };
    const include = optionalString(directory.include);
    const exclude = optionalString(directory.exclude);
    if (include !== undefined) transforms.directory.include = include;
    if (exclude !== undefined) transforms.directory.exclude = exclude;
  }
  if (isPlainObject(appSource.kustomize)) transforms.kustomize = kustomizeOverrides(appSource.kustomize);
  return transforms;
}

function kustomizeOverrides(kustomize: Record<string, unknown>): ArgoKustomizeOverrides {
  const imageStrings = stringList(kustomize.images);
  const overrides: ArgoKustomizeOverrides = {
    images: imageStrings.map(parseImageOverride),
    imageStrings,
    replicas: listAt(kustomize, 'replicas').flatMap((item) => {
      const name = stringAt(item, 'name');
      const count = Number(field(item, 'count'));
      return name !== undefined && Number.isInteger(count) ? [{ name, count }] : [];
    }),
    commonLabels: stringMap(kustomize.commonLabels),
    commonAnnotations: stringMap(kustomize.commonAnnotations),
    forceCommonLabels: kustomize.forceCommonLabels === true,
    forceCommonAnnotations: kustomize.forceCommonAnnotations === true,
    labelWithoutSelector: kustomize.labelWithoutSelector === true,
    patches: readPatches(kustomize.patches),
    components: stringList(kustomize.components),
  };
  for (const name of ['namePrefix', 'nameSuffix', 'namespace'] as const) {
    const value = optionalString(kustomize[name]);
    if (value !== undefined) overrides[name] = value;
  }
  return overrides;
}

function readIgnoreDifference(item: unknown): IgnoreDifference[] {
  if (!isPlainObject(item) || typeof item.kind !== 'string') return [];
  const rule: IgnoreDifference = {
    group: typeof item.group === 'string' ? item.group : '',
    kind: item.kind,
    jsonPointers: stringList(item.jsonPointers),
    jqPathExpressions: stringList(item.jqPathExpressions),
    managedFieldsManagers: stringList(item.managedFieldsManagers),
  };
  if (typeof item.name === 'string' && item.name) rule.name = item.name;
  if (typeof item.namespace === 'string' && item.namespace) rule.namespace = item.namespace;
  return [rule];
}

function argoStatus(obj: KubeObject): SourceStatus {
  const automated = field(obj, 'spec', 'syncPolicy', 'automated');
  const skipped = obj.metadata?.annotations?.['argocd.argoproj.io/skip-reconcile'] === 'true';
  const status: SourceStatus = {
    // Without automated sync Argo CD only reports drift; it never reverts it (DESIGN "suspension").
    suspended: skipped || !isPlainObject(automated) || automated.enabled === false,
    health: argoApplicationHealth(obj),
  };
  const applied = stringAt(obj, 'status', 'sync', 'revision');
  const attempted =
    stringAt(obj, 'status', 'operationState', 'syncResult', 'revision') ??
    stringAt(obj, 'status', 'operationState', 'operation', 'sync', 'revision');
  const phase = stringAt(obj, 'status', 'operationState', 'phase');
  const sync = stringAt(obj, 'status', 'sync', 'status');
  if (applied) status.appliedRevision = applied;
  if (attempted) status.attemptedRevision = attempted;
  if (phase) status.operationPhase = phase;
  if (sync) status.syncStatus = sync;
  const inventory = argoInventory(obj.status);
  if (inventory) status.inventory = inventory;
  return status;
}
