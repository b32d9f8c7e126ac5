// What becomes of the objects a source deployed when head no longer declares the source itself. Its
// objects are gone from head's render, but whether the cluster loses them is the controller's call when
// the source object is deleted:
// - a source this merge does not delete (its parent does not prune it) keeps running its live spec;
// - a Flux HelmRelease is uninstalled unless it is suspended (helm-controller reconcileDelete), and
//   `helm uninstall` leaves the CRDs of the chart's `crds/` directory, which are no part of the release;
// - a Flux Kustomization deletes its inventory only when not suspended and its `deletionPolicy` says
//   so: `Delete`/`WaitForTermination`, or `MirrorPrune` (the default) with `prune: true`
//   (kustomize-controller finalizerShouldDeleteResources);
// - an Argo CD Application deletes what it deployed only with the resources finalizer, and never a
//   CustomResourceDefinition (controller/appcontroller.go shouldBeDeleted).
// Sources nest (a Kustomization applies a HelmRelease): a kept parent keeps its children, so the fates
// are applied until nothing more moves.
import {
  isPlainObject,
  keyId,
  keyOf,
  type DesiredObject,
  type KubeObject,
  type Plan,
  type PlanKept,
  type ResourceKey,
} from '../model/index.js';
import { keepPrunes } from './keep-prunes.js';
import { ARGO_RESOURCES_FINALIZER } from '../sources/index.js';

/** A source base renders and head does not: its key and the objects base renders under it. */
export interface SourceGoneAtHead {
  key: ResourceKey;
  objects: readonly ResourceKey[];
}

const HELM_RELEASE = 'helm.toolkit.fluxcd.io/HelmRelease';
const FLUX_KUSTOMIZATION = 'kustomize.toolkit.fluxcd.io/Kustomization';
const ARGO_APPLICATION = 'argoproj.io/Application';

const specOf = (obj: KubeObject): Record<string, unknown> => (isPlainObject(obj.spec) ? obj.spec : {});
const nameOf = (key: ResourceKey): string => `${key.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`;

/** Why a Flux Kustomization's deletion leaves what it applied, or undefined when it deletes it. */
function kustomizationKeeps(source: KubeObject, name: string): string | undefined {
  const spec = specOf(source);
  if (spec.suspend === true) return `${name} is suspended: deleting it deletes nothing it applied, so this stays`;
  const policy = typeof spec.deletionPolicy === 'string' && spec.deletionPolicy ? spec.deletionPolicy : 'MirrorPrune';
  if (policy === 'Delete' || policy === 'WaitForTermination') return undefined;
  if (policy === 'MirrorPrune' && spec.prune === true) return undefined;
  return policy === 'MirrorPrune'
    ? `${name} does not prune (\`deletionPolicy: MirrorPrune\` with \`prune: false\`): deleting it leaves what it applied, so this stays`
    : `${name} has \`deletionPolicy: ${policy}\`: deleting it leaves what it applied, so this stays`;
}

function hasResourcesFinalizer(source: KubeObject): boolean {
  const finalizers = source.metadata?.finalizers;
  return (
    Array.isArray(finalizers) &&
    finalizers.some((f) => f === ARGO_RESOURCES_FINALIZER || String(f).startsWith(`${ARGO_RESOURCES_FINALIZER}/`))
  );
}

/** A chart's `crds/` file, as Helm names it in its output (`<chart>/crds/…`), not a template. */
const fromCrdsDirectory = (desired: DesiredObject | undefined): boolean =>
  desired !== undefined && /(^|\/)crds\//.test(desired.source.file) && !/(^|\/)templates\//.test(desired.source.file);

/** Why `object`, deployed by the deleted source `source`, stays in the cluster; undefined: it is deleted. */
function keptReason(
  gone: SourceGoneAtHead,
  source: KubeObject,
  object: ResourceKey,
  desired: DesiredObject | undefined,
): string | undefined {
  const name = nameOf(gone.key);
  const type = `${gone.key.group}/${gone.key.kind}`;
  if (type === HELM_RELEASE) {
    if (specOf(source).suspend === true)
      return `${name} is suspended: helm-controller lets it go without uninstalling the release, so this stays`;
    if (object.kind === 'CustomResourceDefinition' && fromCrdsDirectory(desired))
      return `helm uninstall never deletes the CRDs of a chart's crds/ directory (${name})`;
    return undefined;
  }
  if (type === FLUX_KUSTOMIZATION) return kustomizationKeeps(source, name);
  if (type === ARGO_APPLICATION) {
    if (!hasResourcesFinalizer(source))
      return `${name} is deleted without the resources finalizer: this stays in the cluster, managed by no Application`;
    if (object.kind === 'CustomResourceDefinition')
      return 'a CustomResourceDefinition is never deleted with its Application';
  }
  return undefined;
}

/** One pass: the prunes of `gone`'s objects that their controller does not delete, with why they stay. */
function keptOnePass(
  plan: Plan,
  gone: readonly SourceGoneAtHead[],
  live: ReadonlyMap<string, KubeObject>,
  base: ReadonlyMap<string, DesiredObject>,
): PlanKept[] {
  const pruned = new Set(plan.prune.map((entry) => keyId(entry.id)));
  const kept = new Map<string, PlanKept>();
  for (const source of gone) {
    const sourceId = keyId(source.key);
    const current = live.get(sourceId);
    if (!current) continue;
    const objects = new Set(source.objects.map(keyId));
    for (const entry of plan.prune.filter((e) => objects.has(keyId(e.id)) && keyId(e.id) !== sourceId)) {
      const id = keyId(entry.id);
      const reason = pruned.has(sourceId)
        ? keptReason(source, current, entry.id, base.get(id))
        : `${nameOf(source.key)} stays in the cluster (this merge does not delete it) and keeps deploying this`;
      if (reason !== undefined && !kept.has(id)) kept.set(id, { id: entry.id, reason });
    }
  }
  return [...kept.values()];
}

/** `plan` with what the deleted (or kept) sources of `gone` leave in the cluster moved from its prunes to kept. */
export function keepWhatDeletedSourcesLeave(
  plan: Plan,
  gone: readonly SourceGoneAtHead[],
  live: readonly KubeObject[],
  base: readonly DesiredObject[],
): Plan {
  if (gone.length === 0 || plan.prune.length === 0) return plan;
  const liveById = new Map(live.map((obj) => [keyId(keyOf(obj)), obj]));
  const baseById = new Map(base.map((desired) => [keyId(desired.key), desired]));
  let result = plan;
  for (let pass = 0; pass < 8; pass++) {
    const kept = keptOnePass(result, gone, liveById, baseById);
    if (kept.length === 0) break;
    result = keepPrunes(result, kept);
  }
  return result;
}
