// An Argo CD Application (argoproj.io/v1alpha1) read as a source: `spec.source` (or every entry of
// `spec.sources`) path, directory and kustomize options, destination, sync policy, ignoreDifferences
// (pkg/apis/application/v1alpha1/types.go) and, from a live object, its status.
import { argoApplicationHealth } from '../health/gitops.js';
import { isPlainObject, type KubeObject } from '../model/index.js';
import { field, listAt, optionalString, repositoryPath, stringAt, stringList, stringMap } from './fields.js';
import { argoInventory } from './inventory.js';
import { parseImageOverride, readPatches } from './transform-entries.js';
import { argoApplicationRef, ARGO_APPLICATION_GROUP } from './identity.js';
import type {
  ArgoKustomizeOverrides,
  ArgoSourceEntry,
  ArgoTransforms,
  IgnoreDifference,
  Source,
  SourceStatus,
} from './types.js';

export function isArgoApplication(obj: KubeObject): boolean {
  return obj.kind === 'Application' && (obj.apiVersion ?? '').startsWith(`${ARGO_APPLICATION_GROUP}/`);
}

/** `spec.sources` when it has entries (Argo CD's GetSources: they win over `spec.source`), else `spec.source`. */
function applicationSources(spec: Record<string, unknown>): { list: Record<string, unknown>[]; multiple: boolean } {
  const sources = Array.isArray(spec.sources) ? spec.sources.filter(isPlainObject) : [];
  if (Array.isArray(spec.sources) && spec.sources.length > 0) return { list: sources, multiple: true };
  return { list: isPlainObject(spec.source) ? [spec.source] : [], multiple: false };
}

/** One ApplicationSource: where it reads, its `ref`, its helm, directory and kustomize options. */
function readSourceEntry(item: Record<string, unknown>, index: number): ArgoSourceEntry {
  const chart = optionalString(item.chart);
  const path = optionalString(item.path);
  const ref = optionalString(item.ref);
  const repoURL = stringAt(item, 'repoURL') ?? '';
  const targetRevision = optionalString(item.targetRevision);
  const entry: ArgoSourceEntry = {
    index,
    origin: { type: 'git', repoURL, ...(targetRevision ? { targetRevision } : {}), ...(chart ? { chart } : {}) },
    refOnly: ref !== undefined && path === undefined && chart === undefined && !repoURL.startsWith('oci://'),
  };
  // A chart from a Helm repository has no path; `path: .` (or none, with a repoURL) is the root.
  if (chart === undefined) entry.path = repositoryPath(path ?? '');
  if (ref !== undefined) entry.ref = ref;
  if (isPlainObject(item.helm)) entry.helm = item.helm;
  if (isPlainObject(item.directory)) entry.directory = directoryOption(item.directory);
  if (isPlainObject(item.kustomize)) entry.kustomize = kustomizeOverrides(item.kustomize);
  return entry;
}

function directoryOption(directory: Record<string, unknown>): NonNullable<ArgoTransforms['directory']> {
  const option: NonNullable<ArgoTransforms['directory']> = { recurse: directory.recurse === true };
  const include = optionalString(directory.include);
  const exclude = optionalString(directory.exclude);
  if (include !== undefined) option.include = include;
  if (exclude !== undefined) option.exclude = exclude;
  return option;
}

/**
 * The Argo CD Application as a source; `live` adds its status. A multi-source Application keeps every
 * entry of `spec.sources` (each is rendered); its path and origin are those of the first entry that
 * renders (a `ref`-only entry gives no manifests).
 */
export function readArgoApplication(obj: KubeObject, live: boolean): Source {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const { list, multiple } = applicationSources(spec);
  const entries = list.map(readSourceEntry);
  const primary = entries.find((entry) => !entry.refOnly) ?? entries[0];
  const source: Source = {
    id: argoApplicationRef(obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''),
    origin: primary?.origin ?? { type: 'git', repoURL: '' },
    transforms: argoTransforms(spec, primary, multiple ? entries : undefined),
  };
  if (primary === undefined) source.path = '';
  else if (!primary.refOnly && primary.path !== undefined) source.path = primary.path;
  if (live) source.status = argoStatus(obj);
  return source;
}

function argoTransforms(
  spec: Record<string, unknown>,
  primary: ArgoSourceEntry | undefined,
  entries: ArgoSourceEntry[] | undefined,
): ArgoTransforms {
  const automated = field(spec, 'syncPolicy', 'automated');
  // 3.x: `automated.enabled: false` turns automation off with the block kept (`IsAutomatedSyncEnabled`).
  const automatedOn = isPlainObject(automated) && automated.enabled !== false;
  const transforms: ArgoTransforms = {
    controller: 'argocd',
    ...(primary?.helm ? { helm: primary.helm } : {}),
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
  if (primary?.directory) transforms.directory = primary.directory;
  if (primary?.kustomize) transforms.kustomize = primary.kustomize;
  if (entries && primary) {
    transforms.sources = entries;
    transforms.sourceIndex = primary.index;
  }
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

/** Where the transforms' source is written in the Application: `spec.source`, or `spec.sources[i]`. */
export function argoSourceAt(transforms: ArgoTransforms): { segments: string[]; field: string } {
  const index = transforms.sourceIndex;
  return index === undefined
    ? { segments: ['spec', 'source'], field: 'spec.source' }
    : { segments: ['spec', 'sources', String(index)], field: `spec.sources[${index}]` };
}
