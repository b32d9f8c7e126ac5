// Which objects are hooks, read as Argo CD reads them (gitops-engine pkg/sync/hook/hook.go,
// hook/helm/{hook,type,weight,delete_policy}.go, syncwaves/waves.go, sync_phase.go), and a render with
// its hooks set aside. Helm keeps `helm.sh/hook` objects out of a release's manifest and Argo CD maps
// them to its phases. A Flux Kustomization reads neither annotation: kustomize-controller applies such
// an object like any other, so under it the object stays desired state.
import {
  DELETE_HOOK_PHASES,
  HOOK_PHASES,
  keyId,
  type DeleteHookPhase,
  type DesiredObject,
  type HookPhase,
  type KubeObject,
  type PlanDeleteHook,
  type ResourceKey,
  type SyncHook,
} from '../model/index.js';
import { stampedSource, type ArgoTracking, type SourceRef } from './identity.js';

const ARGO_HOOK = 'argocd.argoproj.io/hook';
const HELM_HOOK = 'helm.sh/hook';
const ARGO_TYPES: ReadonlySet<string> = new Set([...HOOK_PHASES, 'Skip']);
/** helm/type.go: the Helm hooks an Argo CD sync runs, and the phase of each; pre-/post-delete are delete hooks. */
const HELM_PHASES: Readonly<Record<string, HookPhase>> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};
/** controller/hook.go hookTypeAnnotations: each delete phase, by either annotation (a value among others). */
const DELETE_TYPES: Readonly<Record<DeleteHookPhase, { argo: string; helm: string }>> = {
  PreDelete: { argo: 'PreDelete', helm: 'pre-delete' },
  PostDelete: { argo: 'PostDelete', helm: 'post-delete' },
};
const ARGO_DELETE: ReadonlySet<string> = new Set(['HookSucceeded', 'HookFailed', 'BeforeHookCreation']);
const HELM_DELETE: Readonly<Record<string, string>> = {
  'before-hook-creation': 'BeforeHookCreation',
  'hook-succeeded': 'HookSucceeded',
  'hook-failed': 'HookFailed',
};

/** A comma-separated annotation's values: trimmed, empty ones and repeats dropped (resource.GetAnnotationCSVs). */
function csv(annotations: Readonly<Record<string, string>>, key: string): string[] {
  const values = (annotations[key] ?? '').split(',').map((value) => value.trim());
  return [...new Set(values.filter((value) => value !== ''))];
}

/** Go's strconv.Atoi: an optional sign and decimal digits, nothing else. */
function atoi(text: string | undefined): number | undefined {
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** hook.Types: Argo CD's own types when it names any, else the Helm hooks mapped to Argo CD phases. */
function hookTypes(annotations: Readonly<Record<string, string>>): string[] {
  const argo = csv(annotations, ARGO_HOOK).filter((type) => ARGO_TYPES.has(type));
  if (argo.length > 0) return argo;
  return [...new Set(csv(annotations, HELM_HOOK).flatMap((type) => HELM_PHASES[type] ?? []))];
}

function deletePolicies(annotations: Readonly<Record<string, string>>): string[] {
  const argo = csv(annotations, 'argocd.argoproj.io/hook-delete-policy').filter((p) => ARGO_DELETE.has(p));
  const helm = csv(annotations, 'helm.sh/hook-delete-policy').flatMap((p) => HELM_DELETE[p] ?? []);
  const policies = [...new Set([...argo, ...helm])];
  return policies.length > 0 ? policies : ['BeforeHookCreation'];
}

/** The delete phases the object runs in (isPreDeleteHook, isPostDeleteHook): either annotation names it. */
function deletePhases(annotations: Readonly<Record<string, string>>): DeleteHookPhase[] {
  const argo = csv(annotations, ARGO_HOOK);
  const helm = csv(annotations, HELM_HOOK);
  return DELETE_HOOK_PHASES.filter(
    (phase) => argo.includes(DELETE_TYPES[phase].argo) || helm.includes(DELETE_TYPES[phase].helm),
  );
}

/**
 * The object's hook annotations as Argo CD reads them, or undefined when it is an ordinary object. An
 * object marked `Skip` alone is no hook to Argo CD but is never applied either: it is returned with
 * `skip`. A misspelt phase still makes a hook (one no sync runs), as in Argo CD; Helm's `crd-install` does not.
 */
export function syncHookOf(object: KubeObject): SyncHook | undefined {
  const annotations = object.metadata?.annotations ?? {};
  const argo = annotations[ARGO_HOOK];
  const helm = annotations[HELM_HOOK];
  if (argo === undefined && (helm === undefined || helm === 'crd-install')) return undefined;
  const types = hookTypes(annotations);
  const wave = atoi(annotations['argocd.argoproj.io/sync-wave']) ?? atoi(annotations['helm.sh/hook-weight']) ?? 0;
  return {
    annotation: argo !== undefined ? ARGO_HOOK : HELM_HOOK,
    value: argo ?? helm ?? '',
    phases: HOOK_PHASES.filter((phase) => types.includes(phase)),
    skip: types.length === 1 && types[0] === 'Skip',
    wave,
    deletePolicies: deletePolicies(annotations),
    onDelete: deletePhases(annotations),
  };
}

/** The object's hook under the source that applies it: none under a Flux Kustomization, which applies it. */
export function hookUnder(object: KubeObject, appliedBy: Pick<SourceRef, 'controller' | 'kind'> | undefined) {
  if (appliedBy?.controller === 'flux' && appliedBy.kind === 'Kustomization') return undefined;
  return syncHookOf(object);
}

/** A live object's hook, judged by the source its stamps name. */
export function liveHookOf(live: KubeObject, tracking?: ArgoTracking): SyncHook | undefined {
  return hookUnder(live, stampedSource(live, tracking));
}

/** A hook the repository declares: set aside from the desired state. */
export interface DesiredHook {
  desired: DesiredObject;
  hook: SyncHook;
  /** The source whose render holds it (the Application whose sync or deletion runs it). */
  appliedBy?: SourceRef;
}

/** A render with the hooks its sources declare set aside: they are listed, never compared. */
export function setHooksAside<
  T extends { objects: DesiredObject[]; sources: Array<{ source: { id: SourceRef }; objects: ResourceKey[] }> },
>(rendered: T): T & { hooks: DesiredHook[] } {
  const appliedBy = new Map<string, SourceRef>();
  for (const result of rendered.sources) {
    for (const key of result.objects) if (!appliedBy.has(keyId(key))) appliedBy.set(keyId(key), result.source.id);
  }
  const hooks: DesiredHook[] = [];
  const objects = rendered.objects.filter((desired) => {
    const source = appliedBy.get(keyId(desired.key));
    const hook = hookUnder(desired.object, source);
    if (hook) hooks.push({ desired, hook, ...(source ? { appliedBy: source } : {}) });
    return !hook;
  });
  if (hooks.length === 0) return { ...rendered, hooks };
  const ids = new Set(hooks.map((entry) => keyId(entry.desired.key)));
  const sources = rendered.sources.map((result) => ({
    ...result,
    objects: result.objects.filter((key) => !ids.has(keyId(key))),
  }));
  return { ...rendered, objects, sources, hooks };
}

/** A hook in words: `Argo CD PreSync hook`, `Helm hook (pre-install,pre-upgrade)`, `object Argo CD skips`. */
export function describeHook(hook: SyncHook): string {
  if (hook.skip) return `object Argo CD never applies (${hook.annotation}: Skip)`;
  if (hook.annotation === HELM_HOOK) return `Helm hook (${hook.value})`;
  const phases = [...hook.phases, ...hook.onDelete];
  return phases.length > 0 ? `Argo CD ${phases.join('/')} hook` : `Argo CD hook (${hook.value})`;
}

const ON_DELETE: Readonly<Record<DeleteHookPhase, string>> = {
  PreDelete: 'PreDelete, before what it deployed is deleted',
  PostDelete: 'PostDelete, after what it deployed is deleted',
};

/** When its Application's deletion runs it, in words; empty for a hook of syncs only. */
function hookRunsOnDelete(hook: SyncHook): string {
  if (hook.onDelete.length === 0) return '';
  return `when its Application is deleted (${hook.onDelete.map((phase) => ON_DELETE[phase]).join('; ')})`;
}

/** The kinds whose deletion runs the plan's delete hooks, for a heading: `Application or HelmRelease`. */
export function deleteHookOwners(plan: { deleteHooks?: ReadonlyArray<Pick<PlanDeleteHook, 'application'>> }): string {
  const kinds = [...new Set((plan.deleteHooks ?? []).map((entry) => entry.application.kind))].sort();
  return kinds.join(' or ');
}

const ON_UNINSTALL: Readonly<Record<DeleteHookPhase, string>> = {
  PreDelete: "pre-delete, before the release's objects are deleted",
  PostDelete: "post-delete, after the release's objects are deleted",
};

/**
 * When deleting its owner runs it — an Argo CD Application, or a Flux HelmRelease whose deletion runs
 * `helm uninstall` — and where it was read from when not from head's render.
 */
export function deleteHookRuns(entry: Pick<PlanDeleteHook, 'hook' | 'origin' | 'application'>): string {
  const { hook, origin } = entry;
  const runs =
    entry.application.kind === 'HelmRelease'
      ? `when its HelmRelease is deleted (helm uninstall: ${hook.onDelete.map((p) => ON_UNINSTALL[p]).join('; ')})`
      : hookRunsOnDelete(hook);
  if (!origin) return runs;
  const from = origin.at === 'base' ? "the base commit's render" : 'the cluster';
  if (entry.application.kind === 'HelmRelease') return `${runs}; listed from ${from}: ${origin.reason}`;
  return `${runs}; listed from ${from}, as its source does not render at head (${origin.reason})`;
}

/**
 * When a sync runs it, in words: `PreSync, wave -1`; when its Application's deletion runs it for a delete
 * hook; `no sync runs it` for a phase Argo CD does not know.
 */
export function hookRuns(hook: SyncHook): string {
  const onDelete = hookRunsOnDelete(hook);
  if (hook.phases.length === 0) return onDelete || 'no Argo CD sync runs it';
  const sync = `${hook.phases.join(', ')}, wave ${hook.wave}; deleted: ${hook.deletePolicies.join(', ')}`;
  return onDelete ? `${sync}; and ${onDelete}` : sync;
}

/** The hooks of a render by keyId: their live objects are hooks even where they carry no annotation. */
export function hooksById(hooks: readonly DesiredHook[] | undefined): Map<string, SyncHook> {
  return new Map((hooks ?? []).map((entry) => [keyId(entry.desired.key), entry.hook]));
}
