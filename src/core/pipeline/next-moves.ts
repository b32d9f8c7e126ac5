// Every person's change on an object a GitOps source applies gets its controller's next move
// (core/ownership next-move): Flux removes it at its next reconcile, Argo CD self-heals it, or the
// change stays. A change about to be undone is shown on first sight, with the remedy.
import type { Config } from '../config/index.js';
import { buildOwnership } from '../classify/index.js';
import { listersOf, ownersOf, ownNodeAt, type OwnershipIndex } from '../k8s/index.js';
import {
  isPlainObject,
  keyId,
  keyOf,
  type DiffResult,
  type FieldChange,
  type KubeObject,
  type ResourceDiff,
} from '../model/index.js';
import { nextMoveOf, stampedSourceName, type ApplyingController } from '../ownership/index.js';
import { readArgoSettings, sourceRefKey, sourceRefText, type Source } from '../sources/index.js';
import { inventoryClaims } from '../ownership/index.js';

export interface NextMovesInput {
  config: Config;
  /** The sources the render followed (their live status included). */
  sources: readonly Source[];
  /** Every live object of the snapshot: the controllers' own objects are among them. */
  live: readonly KubeObject[];
  capturedAt?: string;
}

/** The workload that runs each controller (Flux's and Argo CD's install manifests name them so). */
const WORKLOADS: Record<string, string> = {
  flux: 'kustomize-controller',
  argocd: 'argocd-application-controller',
};

/** Why the controller is not running: its workload in the snapshot reports no ready replica. */
function stoppedWorkload(live: readonly KubeObject[], controller: string): string | undefined {
  const name = WORKLOADS[controller];
  const workload = live.find(
    (o) =>
      (o.kind === 'Deployment' || o.kind === 'StatefulSet') && o.metadata?.name === name && isPlainObject(o.status),
  );
  const ready = Number((workload?.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0);
  if (!workload || ready > 0) return undefined;
  return `its controller ${workload.kind}/${workload.metadata.namespace}/${name} has no ready replica`;
}

/** The controller that applies a live object, by its stamps or a source's inventory. */
function controllersOf(input: NextMovesInput): (resource: ResourceDiff) => ApplyingController | undefined {
  const byName = new Map(input.sources.map((source) => [sourceRefText(source.id), source]));
  const liveById = new Map(input.live.map((object) => [keyId(keyOf(object)), object]));
  const tracking = readArgoSettings(input.live);
  const claims = inventoryClaims(input.sources);
  return (resource) => {
    if (!resource.live) return undefined;
    const name = stampedSourceName(resource.live, tracking) ?? claims?.(resource.key, resource.live);
    const source = name ? byName.get(name) : undefined;
    if (!source) return undefined;
    const live = liveById.get(keyId(sourceRefKey(source.id)));
    return { source, ...(live ? { live } : {}) };
  };
}

function withMove(
  change: FieldChange,
  resource: ResourceDiff,
  controller: ApplyingController,
  ownership: () => OwnershipIndex,
  input: NextMovesInput,
): FieldChange {
  const node = ownNodeAt(ownership(), change.segments);
  const owners = ownersOf(node).length ? ownersOf(node) : listersOf(node);
  const stopped = stoppedWorkload(input.live, controller.source.id.controller);
  const facts = {
    controller,
    object: resource.live!,
    ...(resource.desired ? { desired: resource.desired.object } : {}),
    ...(input.capturedAt ? { capturedAt: input.capturedAt } : {}),
    ...(stopped ? { stopped } : {}),
  };
  const next = nextMoveOf(change, owners, facts);
  return next ? { ...change, next } : change;
}

/** The diff with each person's change marked with what its controller does next. */
export function withNextMoves(diff: DiffResult, input: NextMovesInput): DiffResult {
  const controllerOf = controllersOf(input);
  const resources = diff.resources.map((resource) => {
    if (resource.status !== 'modified' && !resource.reported?.length) return resource;
    const controller = controllerOf(resource);
    if (!controller) return resource;
    let index: OwnershipIndex | undefined;
    const ownership = (): OwnershipIndex => (index ??= buildOwnership(resource.live!, input.config));
    const move = (change: FieldChange): FieldChange => withMove(change, resource, controller, ownership, input);
    return {
      ...resource,
      changes: resource.changes.map(move),
      ...(resource.reported ? { reported: resource.reported.map(move) } : {}),
    };
  });
  return { ...diff, resources };
}
