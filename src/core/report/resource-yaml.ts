// YAML for both sides of a text diff: the desired object, and the live object shaped like it, with
// the manager and time written next to each drifted field as a YAML comment.
import { Document, isCollection, isScalar, type Node } from 'yaml';
import { showTime, type FieldChange, type KubeObject } from '../model/index.js';
import { withoutServerState } from '../k8s/index.js';
import { concretePath, liveViewOf, segmentsOf } from './live-view.js';

/** What the manager did to the live field, in words (`set by kubectl-scale`). */
const VERBS: Record<FieldChange['op'], string> = { replace: 'set', add: 'added', remove: 'applied' };

/** `set by kubectl-scale at 2026-12-02T03:02:11Z (human)`: who made the field what it is in live. */
export function describeOwner(change: FieldChange): string {
  const who = change.manager ?? 'unknown manager';
  const when = change.time ? ` at ${showTime(change.time)}` : '';
  const note = change.op === 'remove' ? '; Git no longer declares it, the next apply removes it' : '';
  return `${VERBS[change.op]} by ${who}${when} (${change.cause})${note}`;
}

function annotate(doc: Document, root: unknown, change: FieldChange): void {
  const path = concretePath(root, segmentsOf(change));
  if (!path || path.length === 0) return;
  const node = doc.getIn(path, true) as Node | undefined;
  if (isScalar(node)) node.comment = ` ${describeOwner(change)}`;
  else if (isCollection(node)) node.commentBefore = ` ${describeOwner(change)}`;
}

function toYaml(value: Record<string, unknown>, changes: FieldChange[], side: 'desired' | 'live'): string {
  const doc = new Document(value);
  for (const change of changes) {
    // A field that is gone from live is annotated where it still exists: on the desired side.
    const hasLive = change.live !== undefined;
    if ((side === 'live') === hasLive) annotate(doc, value, change);
  }
  return doc.toString({ lineWidth: 0 });
}

export function desiredYaml(desired: KubeObject, changes: FieldChange[]): string {
  return toYaml(desired as Record<string, unknown>, changes, 'desired');
}

export function liveYaml(desired: KubeObject, changes: FieldChange[]): string {
  return toYaml(liveViewOf(desired as Record<string, unknown>, changes), changes, 'live');
}

/** An object that exists only in live, without status and server-set metadata (noise). */
export function extraYaml(live: KubeObject): string {
  return new Document(withoutServerState(live)).toString({ lineWidth: 0 });
}
