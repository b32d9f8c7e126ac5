// The owning controller's next move on a change people made, read from what the controllers do:
// * Flux kustomize-controller applies with server-side apply and force (fluxcd/pkg `ssa`
//   manager_apply.go), so a field Git declares gets Git's value back at the next reconcile. Before each
//   apply it takes over the managedFields entries of `kubectl…` managers (Update and Apply), of
//   `before-first-apply` and of its own older Updates — prefix match, subresource writes such as
//   `kubectl scale`'s `/scale` excepted (ssa `PatchReplaceFieldsManagers` / `matchFieldManager`,
//   the list in kustomize-controller's `apply`) — so what they wrote and Git lacks is removed too.
//   `kustomize.toolkit.fluxcd.io/ssa: Merge` skips that clean-up; `ssa: Ignore|IfNotPresent` and
//   `reconcile: disabled` skip the object. Flux's FAQ: "Why are kubectl edits rolled back by Flux?".
// * Argo CD compares the fields Git declares: self-heal syncs them back at once; automated sync without
//   self-heal syncs an OutOfSync Application when a new commit of its source appears (unless
//   `argocd.argoproj.io/manifest-generate-paths` leaves the commit out); without automated sync nothing.
import type { FieldChange, KubeObject, NextMove } from '../model/index.js';
import { isPlainObject, isUndoneNext } from '../model/index.js';
import type { Owner } from '../k8s/index.js';
import type { Source } from '../sources/index.js';

const FLUX = 'kustomize.toolkit.fluxcd.io';
export const ARGO_GENERATE_PATHS = 'argocd.argoproj.io/manifest-generate-paths';

/** The controller object that applies a live object: its source, and its own live object (status, spec). */
export interface ApplyingController {
  source: Source;
  live?: KubeObject;
}

/** A Go duration as Flux writes `spec.interval` (`10m0s`, `1h`, `90s`, `1.5h`), in seconds. */
export function goDurationSeconds(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^(\d+(\.\d+)?(h|m|s|ms|us|µs|ns))+$/.test(text)) return undefined;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 };
  let seconds = 0;
  for (const part of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) seconds += Number(part[1]) * unit[part[2]!]!;
  return seconds;
}

function text(object: KubeObject | undefined, ...path: string[]): string | undefined {
  let node: unknown = object;
  for (const key of path) node = isPlainObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** A Flux setting on an object: its annotations or labels (ssa `AnyInMetadata` reads both). */
function fluxSetting(objects: ReadonlyArray<KubeObject | undefined>, name: string): string | undefined {
  for (const object of objects) {
    const value = object?.metadata?.annotations?.[`${FLUX}/${name}`] ?? object?.metadata?.labels?.[`${FLUX}/${name}`];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** Whether kustomize-controller's clean-up takes a managedFields entry over (kustomize-controller `apply`). */
export function fluxTakesOver(owner: Pick<Owner, 'manager' | 'operation' | 'subresource'>): boolean {
  if (owner.subresource) return false;
  const { manager, operation } = owner;
  if (manager.startsWith('kubectl')) return operation === 'Update' || operation === 'Apply';
  if (manager.startsWith('before-first-apply')) return operation === 'Update';
  return manager.startsWith('kustomize-controller');
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/**
 * When Flux next reconciles after `changedAt`: every `spec.interval` from its last reconcile (the newest
 * `status.history[].lastReconciled`, else `status.lastHandledReconcileAt`), else one interval after the change.
 */
function fluxNextReconcile(live: KubeObject | undefined, changedAt: string | undefined): number | undefined {
  const interval = goDurationSeconds(text(live, 'spec', 'interval'));
  const changed = changedAt ? Date.parse(changedAt) : NaN;
  if (!interval || !Number.isFinite(changed)) return undefined;
  const last = Date.parse(
    text(live, 'status', 'history', '0', 'lastReconciled') ?? text(live, 'status', 'lastHandledReconcileAt') ?? '',
  );
  const step = interval * 1000;
  if (!Number.isFinite(last) || last > changed) return changed + step;
  return last + Math.max(1, Math.ceil((changed - last) / step)) * step;
}

/** A change that outlives its controller's next reconcile by more than the jitter and a minute. */
function overdue(due: number, live: KubeObject | undefined, capturedAt: string | undefined): boolean {
  const seen = capturedAt ? Date.parse(capturedAt) : NaN;
  const interval = goDurationSeconds(text(live, 'spec', 'interval')) ?? 0;
  return Number.isFinite(seen) && seen > due + interval * 100 + 60_000;
}

function fluxMove(change: FieldChange, owners: readonly Owner[], facts: MoveFacts): NextMove | undefined {
  const { controller, object, desired } = facts;
  const { namespace, name } = controller.source.id;
  const by = `Flux Kustomization ${namespace}/${name}`;
  const { transforms, status } = controller.source;
  if (status?.suspended || (transforms.controller === 'flux' && transforms.suspend))
    return { by, what: 'wait', why: `${by} is suspended: it undoes nothing until it is resumed` };
  const both = [desired, object];
  const skip = fluxSetting(both, 'ssa');
  if (fluxSetting(both, 'reconcile') === 'disabled' || skip === 'Ignore' || skip === 'IfNotPresent') {
    const setting = skip === 'Ignore' || skip === 'IfNotPresent' ? `ssa: ${skip}` : 'reconcile: disabled';
    return { by, what: 'keep', why: `the object carries \`${FLUX}/${setting}\`: Flux does not apply it` };
  }
  const undo = (why: string): NextMove => {
    const due = fluxNextReconcile(controller.live, change.time);
    const late = due !== undefined && overdue(due, controller.live, facts.capturedAt);
    const stopped = late
      ? `; it should have by ~${iso(due!)} and has not: ${by} is not reconciling (\`flux get kustomization ${name} -n ${namespace}\`)`
      : '';
    return {
      by,
      what: 'undo',
      ...(due !== undefined ? { when: iso(due) } : {}),
      why: `${why}${stopped}`,
      suspend: `flux suspend kustomization ${name} -n ${namespace}`,
      ...(late ? { overdue: true } : {}),
    };
  };
  if (change.desired !== undefined) return undo(`${by} applies Git's value again at its next reconcile`);
  if (skip === 'Merge')
    return {
      by,
      what: 'keep',
      why: `the object carries \`${FLUX}/ssa: Merge\`: Flux keeps fields Git does not declare`,
    };
  const people = owners.filter((owner) => !owner.manager.startsWith('kustomize-controller'));
  if (people.length === 0) return undefined;
  const kept = people.find((owner) => !fluxTakesOver(owner));
  if (!kept)
    return undo(
      `${by} takes over ${people[0]!.manager}'s fields and removes what Git does not declare at its next reconcile`,
    );
  const through = kept.subresource ? ` through the /${kept.subresource} subresource` : '';
  return {
    by,
    what: 'keep',
    why: `written by ${kept.manager}${through}, which Flux does not take over: it stays until Git declares it`,
  };
}

function argoMove(change: FieldChange, facts: MoveFacts): NextMove | undefined {
  const { source, live } = facts.controller;
  if (source.transforms.controller !== 'argocd') return undefined;
  const { namespace, name } = source.id;
  const by = `Argo CD Application ${namespace}/${name}`;
  const policy = source.transforms.syncPolicy;
  if (!policy.automated || source.status?.suspended)
    return { by, what: 'wait', why: `${by} has no automated sync: it undoes nothing until someone syncs it` };
  if (change.desired === undefined)
    return { by, what: 'keep', why: 'Argo CD compares only the fields Git declares: it leaves this one' };
  const app = namespace === 'argocd' ? name : `${namespace}/${name}`;
  const suspend = `argocd app set ${app} --sync-policy none`;
  if (policy.selfHeal)
    return {
      by,
      what: 'undo',
      ...(change.time ? { when: change.time } : {}),
      why: `${by} self-heals: it syncs Git's value back within seconds`,
      suspend,
    };
  const paths = live?.metadata?.annotations?.[ARGO_GENERATE_PATHS];
  const which = paths
    ? `the next commit that changes ${paths} (its \`${ARGO_GENERATE_PATHS}\`)`
    : "the next commit of its source — any merge, even one that does not touch this Application's files —";
  return { by, what: 'undo-at-commit', why: `${by} syncs automatically: ${which} syncs Git's value back`, suspend };
}

export interface MoveFacts {
  controller: ApplyingController;
  /** The live object changed. */
  object: KubeObject;
  /** Git's object, when Git declares it. */
  desired?: KubeObject;
  /** When the snapshot was taken: a change still there long after its undo was due says the controller stopped. */
  capturedAt?: string;
  /** Why the controller is not running (`its controller Deployment/flux-system/kustomize-controller has no ready replica`). */
  stopped?: string;
}

/** What the controller that applies the object does next to a person's change; undefined when nothing applies it. */
export function nextMoveOf(change: FieldChange, owners: readonly Owner[], facts: MoveFacts): NextMove | undefined {
  if (change.cause !== 'human' && change.cause !== 'unknown') return undefined;
  const move = controllerMove(change, owners, facts);
  if (!move || !facts.stopped || !isUndoneNext(move)) return move;
  // A stopped controller undoes nothing: say so, and what it does once it runs again.
  const { by, suspend } = move;
  const why = `${by} is not reconciling: ${facts.stopped}; nothing undoes this change until it runs again, then: ${move.why}`;
  return { by, what: 'wait', why, ...(suspend ? { suspend } : {}) };
}

function controllerMove(change: FieldChange, owners: readonly Owner[], facts: MoveFacts): NextMove | undefined {
  switch (facts.controller.source.id.controller) {
    case 'flux':
      return facts.controller.source.id.kind === 'Kustomization' ? fluxMove(change, owners, facts) : undefined;
    case 'argocd':
      return argoMove(change, facts);
    default:
      return undefined;
  }
}
