// Claims a StatefulSet made from its `volumeClaimTemplates`, and why a change to one is not written back:
// the StatefulSet controller names each claim `<template>-<statefulset>-<ordinal>` (kubernetes
// pkg/controller/statefulset/stateful_set_utils.go `getPersistentVolumeClaimName`), and the API server
// refuses any update of `volumeClaimTemplates` (apps validation: "updates to statefulset spec for fields
// other than … are forbidden"), so a claim resized or annotated by hand cannot be carried by the template.
import type { KubeObject } from '../model/index.js';
import { isPlainObject } from '../model/index.js';

export interface ClaimTemplate {
  /** `namespace/name` of the StatefulSet. */
  statefulSet: string;
  /** The template's `metadata.name`. */
  template: string;
}

/** namespace → the claim name prefixes (`<template>-<statefulset>-`) of every StatefulSet there. */
export type ClaimTemplateIndex = ReadonlyMap<string, ReadonlyArray<ClaimTemplate & { prefix: string }>>;

/** Indexes the claim templates of the StatefulSets among `objects` (live, or rendered from Git). */
export function indexClaimTemplates(objects: readonly KubeObject[]): ClaimTemplateIndex {
  const index = new Map<string, Array<ClaimTemplate & { prefix: string }>>();
  for (const object of objects) {
    if (object.kind !== 'StatefulSet' || !object.apiVersion?.startsWith('apps/')) continue;
    const namespace = object.metadata?.namespace ?? '';
    const name = object.metadata?.name ?? '';
    const templates = (object.spec as Record<string, unknown> | undefined)?.volumeClaimTemplates;
    for (const template of Array.isArray(templates) ? templates : []) {
      const metadata = isPlainObject(template) ? template.metadata : undefined;
      const claim = isPlainObject(metadata) && typeof metadata.name === 'string' ? metadata.name : undefined;
      if (!claim || !name) continue;
      const entries = index.get(namespace) ?? [];
      entries.push({ statefulSet: `${namespace}/${name}`, template: claim, prefix: `${claim}-${name}-` });
      index.set(namespace, entries);
    }
  }
  return index;
}

/** The template a claim was made from, when a StatefulSet of its namespace names it so. */
export function claimTemplateOf(claim: KubeObject, index: ClaimTemplateIndex): ClaimTemplate | undefined {
  if (claim.kind !== 'PersistentVolumeClaim') return undefined;
  const name = claim.metadata?.name ?? '';
  const found = index
    .get(claim.metadata?.namespace ?? '')
    ?.filter((entry) => name.startsWith(entry.prefix) && /^\d+$/.test(name.slice(entry.prefix.length)))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
  return found ? { statefulSet: found.statefulSet, template: found.template } : undefined;
}

/** Why a person's change to a claim made from a template is reported and never written into the template. */
export function claimTemplateReason(made: ClaimTemplate): string {
  return (
    `made by StatefulSet ${made.statefulSet} from its volumeClaimTemplates[${made.template}], which the API server ` +
    'refuses to change in place: the template cannot carry this change, so it is not written into Git. It stays on ' +
    'the claim; to make new claims match, recreate the StatefulSet on purpose ' +
    '(`kubectl delete statefulset --cascade=orphan`, then change the template)'
  );
}
