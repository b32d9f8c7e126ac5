// Which drift is written back and which is only reported, by the config's `drift.codify`,
// `drift.causes` and `drift.resolveConflicts`. Nothing is ever deleted from Git, controller-made
// changes are not taken over, Secret values never reach the repository, and risky drift waits for
// a person's decision whatever the filters say.
import type { Config } from '../config/index.js';
import {
  isUndecided,
  type Cause,
  type Conflict,
  type DiffResult,
  type FieldChange,
  type ObjectOwner,
  type OwnedObject,
  type ResourceDiff,
  type Risk,
} from '../model/index.js';
import type { ReportedChange } from './types.js';
import { isSecret, isSecretValuePath, SECRET_NOT_WRITTEN } from '../k8s/index.js';
import { heldBackReason } from '../risk/index.js';

export type Intent =
  | { type: 'set'; resource: ResourceDiff; change: FieldChange }
  | { type: 'remove-field'; resource: ResourceDiff; conflict: Conflict }
  | { type: 'new-file'; resource: ResourceDiff };

export interface Selection {
  intents: Intent[];
  reported: ReportedChange[];
}

function isSecretValue(resource: ResourceDiff, change: FieldChange): boolean {
  return isSecret(resource.key) && isSecretValuePath(change.path);
}

function conflictAsChange(conflict: Conflict): FieldChange {
  return {
    path: conflict.path,
    segments: conflict.segments,
    op: 'replace',
    desired: conflict.desired,
    live: conflict.live,
    manager: conflict.manager,
    time: conflict.time,
    cause: 'controller',
  };
}

/** Who made a reported change or object and when, and the cause, as far as managedFields say. */
function madeBy(by: { manager?: string; time?: string; cause?: Cause } | undefined): Partial<ReportedChange> {
  if (!by) return {};
  return {
    ...(by.manager ? { manager: by.manager } : {}),
    ...(by.time ? { time: by.time } : {}),
    ...(by.cause ? { cause: by.cause } : {}),
  };
}

/** A live object's creator: a person's object was made by a person (human) when a manager is recorded. */
function ownerMadeBy(owner: ObjectOwner): Partial<ReportedChange> {
  const cause: Cause = !owner.manager ? 'unknown' : owner.class === 'person' ? 'human' : 'controller';
  return madeBy({ manager: owner.manager, time: owner.time, cause });
}

/**
 * A person decided, on this very item, that it may be codified (`/driftback allow`): that decision is
 * the codify, whatever `drift.causes` says (a raw API client's change is `unknown`).
 */
function isDecided(risk: readonly Risk[] | undefined): boolean {
  return !!risk?.length && risk.every((entry) => entry.decided === true);
}

/** What selection decides for one item: codify it, report it with a reason, or hold it back for a person. */
type Verdict = { type: 'codify' } | { type: 'report'; reason: string } | { type: 'hold'; risk: Risk[] };

export function selectIntents(
  resources: readonly ResourceDiff[],
  config: Config,
  namespaces?: readonly string[],
  owned: readonly OwnedObject[] = [],
): Selection {
  const intents: Intent[] = [];
  const reported: ReportedChange[] = [];
  const report = (resource: ResourceDiff, reason: string, change?: FieldChange): void => {
    const by = madeBy(change ?? resource.createdBy);
    reported.push({ key: resource.key, ...(change ? { change } : {}), reason, ...by });
  };
  const decide = (resource: ResourceDiff, verdict: Verdict, intent: Intent, change?: FieldChange): void => {
    if (verdict.type === 'codify') intents.push(intent);
    else if (verdict.type === 'report') report(resource, verdict.reason, change);
    else {
      const by = madeBy(change ?? resource.createdBy);
      const reason = heldBackReason(verdict.risk);
      reported.push({ key: resource.key, ...(change ? { change } : {}), reason, ...by, risk: verdict.risk });
    }
  };
  for (const resource of resources) {
    if (resource.status === 'missing') {
      report(resource, 'missing in the cluster: driftback never deletes a manifest from Git');
      continue;
    }
    if (resource.status === 'extra') {
      decide(resource, newFileVerdict(resource, config.drift, namespaces), { type: 'new-file', resource });
      continue;
    }
    for (const change of resource.changes)
      decide(resource, changeVerdict(resource, change, config.drift), { type: 'set', resource, change }, change);
    for (const change of resource.reported ?? []) {
      report(resource, change.reported?.reason ?? 'reported, not codified', change);
    }
    for (const change of resource.ignored)
      report(resource, `ignored: ${change.ignored?.reason ?? 'an ignore rule matched'}`, change);
    for (const conflict of resource.conflicts) {
      if (config.drift.resolveConflicts === 'remove-field') intents.push({ type: 'remove-field', resource, conflict });
      else
        report(
          resource,
          `conflict: Git declares a field ${conflict.manager} owns. ${conflict.fix}`,
          conflictAsChange(conflict),
        );
    }
  }
  reported.push(...ownedReported(owned));
  return { intents, reported };
}

/** Whether an object created in the cluster becomes a new manifest, and if not, why. */
function newFileVerdict(
  resource: ResourceDiff,
  { codify, causes }: Config['drift'],
  namespaces: readonly string[] | undefined,
): Verdict {
  const creator = resource.createdBy;
  const because = (reason: string): Verdict => ({ type: 'report', reason });
  if (isUndecided(resource.risk)) return { type: 'hold', risk: resource.risk! };
  if (!codify.includes('extra'))
    return because('created in the cluster; drift.codify does not include "extra": add it to codify new objects');
  if (isSecret(resource.key)) return because(SECRET_NOT_WRITTEN);
  if (namespaces && resource.key.namespace && !namespaces.includes(resource.key.namespace))
    return because(`namespace ${resource.key.namespace} is outside the cluster's namespaces: add it to codify this`);
  if (!creator)
    return because('created in the cluster by an unknown manager (no managedFields): to keep it, write its manifest');
  if (!(causes as string[]).includes(creator.cause) && !isDecided(resource.risk))
    return because(
      `created by ${creator.manager} (${creator.cause}); drift.causes is [${causes.join(', ')}]: add ${creator.cause} to codify it`,
    );
  if (!resource.live) return because('the snapshot does not hold the live object: check the agent lists its namespace');
  return { type: 'codify' };
}

/** Whether one live field change is written into Git, and if not, why. */
function changeVerdict(resource: ResourceDiff, change: FieldChange, { codify, causes }: Config['drift']): Verdict {
  const who = change.manager ? `${change.manager} (${change.cause})` : change.cause;
  const because = (reason: string): Verdict => ({ type: 'report', reason });
  if (change.op === 'remove')
    return because('Git no longer declares this field: the next apply removes it; to keep it, declare it again');
  if (isUndecided(change.risk)) return { type: 'hold', risk: change.risk! };
  if (isSecretValue(resource, change))
    return because('a Secret value: never written to Git; change it through your secrets tooling');
  if (!(causes as string[]).includes(change.cause) && !isDecided(change.risk) && change.decision === undefined)
    return because(`changed by ${who}; drift.causes is [${causes.join(', ')}]: add ${change.cause} to codify it`);
  if (change.op === 'replace' && !codify.includes('modified'))
    return because('drift.codify does not include "modified": add it to codify changed fields');
  if (change.op === 'add' && !codify.includes('added'))
    return because('drift.codify does not include "added": add it to codify added fields');
  if (change.live === undefined) return because('the live value is unknown: take a new snapshot');
  return { type: 'codify' };
}

/** Objects Git lacks that are not a person's to codify: a person's ephemeral object, hand changes on chart output. */
function ownedReported(owned: readonly OwnedObject[]): ReportedChange[] {
  const reported: ReportedChange[] = [];
  for (const object of owned) {
    const risk = isUndecided(object.risk) ? { risk: object.risk! } : {};
    if (object.reported)
      reported.push({ key: object.key, reason: object.reported.reason, ...ownerMadeBy(object.owner), ...risk });
    for (const change of object.changes ?? []) {
      const reason = change.reported?.reason ?? 'reported, not codified';
      const held = isUndecided(change.risk) ? { risk: change.risk! } : {};
      reported.push({ key: object.key, change, reason, ...madeBy(change), ...held });
    }
  }
  return reported;
}

/**
 * What a diff reports and never codifies, whatever the config says: imperative actions, an autoscaler's
 * replicas, hand changes on chart output, a person's ephemeral objects. Shown even when no pull request opens.
 */
export function neverCodified(result: Pick<DiffResult, 'resources' | 'owned'>): ReportedChange[] {
  const reported: ReportedChange[] = [];
  for (const resource of result.resources) {
    for (const change of resource.reported ?? []) {
      const reason = change.reported?.reason ?? 'reported, not codified';
      reported.push({ key: resource.key, change, reason, ...madeBy(change) });
    }
  }
  return [...reported, ...ownedReported(result.owned ?? [])];
}

export { conflictAsChange };
