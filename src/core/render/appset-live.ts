// The ApplicationSets of the cluster behind the generated Applications of the snapshot. A generated
// Application is followed after the source whose inventory lists its ApplicationSet (an app of apps),
// so the ApplicationSet that source renders is expanded first and an Application it no longer
// generates is planned as deleted, not rendered from its live spec. An ApplicationSet no rendered source
// of this repository declares (its parent applies another repository, is not rendered, or is not in
// view) is expanded from its live spec: its git generators read this repository at head all the same.
import { isPlainObject, keyId, keyOf, type KubeObject, type ResourceKey } from '../model/index.js';
import { isApplicationSet, isGeneratedApplication, readSource, sourceRefText } from '../sources/index.js';
import type { Source } from '../sources/types.js';

/** The key of the ApplicationSet that controls a generated Application (its namespace, the owner's name). */
function ownerKey(application: KubeObject): ResourceKey | undefined {
  const owner = (application.metadata?.ownerReferences ?? []).find(
    (ref) => isPlainObject(ref) && ref.controller === true && ref.kind === 'ApplicationSet',
  );
  if (!owner || typeof owner.name !== 'string') return undefined;
  const namespace = application.metadata?.namespace ?? '';
  return { group: 'argoproj.io', kind: 'ApplicationSet', namespace, name: owner.name };
}

export interface LiveGenerator {
  key: ResourceKey;
  /** The live ApplicationSet, when the snapshot holds it. */
  appset?: KubeObject;
}

/** The ApplicationSet of each generated Application of the snapshot, by the Application's source id. */
export function liveGenerators(live: readonly KubeObject[]): Map<string, LiveGenerator> {
  const appsets = new Map(live.filter(isApplicationSet).map((appset) => [keyId(keyOf(appset)), appset]));
  const out = new Map<string, LiveGenerator>();
  for (const application of live) {
    if (!isGeneratedApplication(application)) continue;
    const key = ownerKey(application);
    const source = readSource(application, true);
    if (!key || !source) continue;
    const appset = appsets.get(keyId(key));
    out.set(sourceRefText(source.id), appset ? { key, appset } : { key });
  }
  return out;
}

/** The sources whose inventory lists `key`, by id. */
export function listersOf(key: ResourceKey, sources: ReadonlyMap<string, Source>): string[] {
  const id = keyId(key);
  return [...sources]
    .filter(([, source]) => (source.status?.inventory ?? []).some((entry) => keyId(entry.key) === id))
    .map(([sourceId]) => sourceId);
}

/**
 * Why an ApplicationSet is read from the cluster: the parent that lists it did not render it (with the
 * parent's state), or no source of this repository declares it.
 */
export function readFromLiveWhy(parents: ReadonlyArray<{ name: string; state: string }>): string {
  const parent = parents[0];
  const why = parent
    ? `${parent.name}, which applies it, is ${parent.state}`
    : 'no source of this repository declares it';
  return `read from the cluster (${why}), so a change of the ApplicationSet itself in this repository is not seen`;
}
