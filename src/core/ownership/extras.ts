// Live objects Git does not declare, sorted by owner: a person's object in scope is extra (codifiable);
// a person's object never written as a file (a Pod, a ReplicaSet, a Secret) is reported; every other
// owner's object is listed under its owner, with the hand changes people made on it.
import type { Config } from '../config/index.js';
import type { KubeObject, ObjectOwner, OwnedObject, Reported, ResourceKey, SyncHook } from '../model/index.js';
import { keyId, keyOf } from '../model/index.js';
import { creationOf, ephemeralReason, isSecret, SECRET_NOT_WRITTEN, switchOnAt } from '../k8s/index.js';
import { handChangesOn, helmReason } from './hand-changes.js';
import { indexHelm } from './helm.js';
import { agentObjectsOf } from './agent-install.js';
import { describeOwner, ownerOf, stampedSourceName, type OwnershipContext } from './owner.js';
import { claimTemplateOf, claimTemplateReason, indexClaimTemplates } from './claim-templates.js';
import { describeHook, liveHookOf, readArgoSettings } from '../sources/index.js';

/** The ownership context of one snapshot: its Helm releases, and the sources' claims when known. */
export function ownershipContextOf(
  live: readonly KubeObject[],
  config: Config,
  sourceOf?: OwnershipContext['sourceOf'],
): OwnershipContext {
  return {
    config,
    helm: indexHelm(live),
    tracking: readArgoSettings(live),
    claims: indexClaimTemplates(live),
    agentObjects: agentObjectsOf(live),
    ...(sourceOf ? { sourceOf } : {}),
  };
}

/** Why a person's object is never written as a new file, or undefined when it may be. */
export function neverWritten(object: KubeObject): Reported | undefined {
  const ephemeral = ephemeralReason(object);
  if (ephemeral) return { code: 'ephemeral', reason: ephemeral };
  if (isSecret(object)) return { code: 'secret', reason: SECRET_NOT_WRITTEN };
  return undefined;
}

function hookOwner(live: KubeObject, hook: SyncHook): ObjectOwner {
  const created = creationOf(live);
  const made = created ? { manager: created.manager, ...(created.time ? { time: created.time } : {}) } : {};
  return { class: 'hook', name: describeHook(hook), evidence: `annotated ${hook.annotation}: ${hook.value}`, ...made };
}

/**
 * `argocd.argoproj.io/compare-options: IgnoreExtraneous` (docs/user-guide/compare-options.md): Argo CD
 * leaves the object out of the Application's sync status when Git lacks it; so does driftback.
 */
function ignoreExtraneousOwner(live: KubeObject, context: OwnershipContext): ObjectOwner | undefined {
  const options = live.metadata.annotations?.[COMPARE_OPTIONS] ?? '';
  if (!options.split(',').some((option) => option.trim() === 'IgnoreExtraneous')) return undefined;
  const created = creationOf(live);
  return {
    class: 'source',
    name: stampedSourceName(live, context.tracking) ?? 'Argo CD',
    evidence: `annotated ${COMPARE_OPTIONS}: IgnoreExtraneous (not compared when Git lacks it)`,
    ...(created ? { manager: created.manager, ...(created.time ? { time: created.time } : {}) } : {}),
  };
}

const COMPARE_OPTIONS = 'argocd.argoproj.io/compare-options';

export type ExtraVerdict = { type: 'extra' } | { type: 'owned'; owned: OwnedObject };

/** What a live object Git lacks is: a person's extra object, or an object listed under its owner. */
export function judgeExtra(live: KubeObject, context: OwnershipContext): ExtraVerdict {
  const key: ResourceKey = keyOf(live);
  // A hook left in the cluster (BeforeHookCreation, a failed hook) is its tool's, never extra.
  const hook = context.hooks?.get(keyId(key)) ?? liveHookOf(live, context.tracking);
  if (hook) return { type: 'owned', owned: { key, owner: hookOwner(live, hook) } };
  const ignored = ignoreExtraneousOwner(live, context);
  if (ignored) return { type: 'owned', owned: { key, owner: ignored } };
  const owner = ownerOf(live, context);
  if (owner.class === 'person') {
    const reported = neverWritten(live);
    return reported ? { type: 'owned', owned: { key, owner, reported } } : { type: 'extra' };
  }
  // Created by an applier and claimed by no source: left behind by Git (a prune to come), shown as extra.
  const claimed = stampedSourceName(live, context.tracking) ?? context.sourceOf?.(key, live);
  if (owner.class === 'source' && !claimed) return { type: 'extra' };
  if (owner.class === 'helm') {
    const reason = (path: string): Reported => ({ code: 'helm', reason: helmReason(owner.name, path) });
    const changes = handChangesOn(live, context.config, reason);
    return { type: 'owned', owned: { key, owner, ...(changes.length ? { changes } : {}) } };
  }
  if (owner.class === 'operator' || owner.class === 'cluster') {
    // A person's change to what a controller made: reported with who and when, never written into Git.
    const made = context.claims ? claimTemplateOf(live, context.claims) : undefined;
    const reported = (path: string): Reported => ({
      code: 'made-by-controller',
      reason: made ? claimTemplateReason(made) : madeByReason(owner, switchOnAt(path, key, live)),
    });
    const changes = handChangesOn(live, context.config, reported);
    return { type: 'owned', owned: { key, owner, ...(changes.length ? { changes } : {}) } };
  }
  return { type: 'owned', owned: { key, owner } };
}

/**
 * Why a person's change to an object an operator or the cluster made is not written into Git. An
 * emergency switch (argocd-application-controller scaled to 0) says what it stops and how it ends: no
 * file holds it, so there is nothing to allow or codify.
 */
function madeByReason(owner: ObjectOwner, flipped?: { command: string; stops: string }): string {
  if (flipped)
    return `${describeOwner(owner)}, not declared in Git: emergency switch (\`${flipped.command}\`): ${flipped.stops}. No file holds it, so it is not written into Git; to end it, undo it in the cluster`;
  return `${describeOwner(owner)}, not declared in Git: no file holds it, so the change is not written into Git; change it where ${owner.name} takes its settings from`;
}
