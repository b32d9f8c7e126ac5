// Every source the repository and the snapshot hold, one entry per controller object: the spec (path,
// transforms) from the rendered repository when it declares the object — that is what the controller
// applies next —, else from the live object; the status always from the live object.
import type { DesiredObject, KubeObject } from '../model/index.js';
import { isArgoApplication, readArgoApplication } from './argocd.js';
import { isFluxKustomization, readFluxKustomization } from './flux.js';
import { sourceRefText } from './identity.js';
import type { Source } from './types.js';

export interface SourceInputs {
  /** Objects rendered from the repository (with where each was declared). */
  desired?: readonly DesiredObject[];
  /** Objects of the snapshot. */
  live?: readonly KubeObject[];
}

/** True for the controller objects that are sources: Flux Kustomizations and Argo CD Applications. */
export function isSourceObject(obj: KubeObject): boolean {
  return isFluxKustomization(obj) || isArgoApplication(obj);
}

/** One controller object as a source; undefined for other objects. */
export function readSource(obj: KubeObject, live: boolean): Source | undefined {
  if (isFluxKustomization(obj)) return readFluxKustomization(obj, live);
  if (isArgoApplication(obj)) return readArgoApplication(obj, live);
  return undefined;
}

/** The sources of a repository render and a snapshot, in the repository's order, then live-only ones by id. */
export function readSources(inputs: SourceInputs): Source[] {
  const byId = new Map<string, Source>();
  for (const desired of inputs.desired ?? []) {
    const source = readSource(desired.object, false);
    if (!source) continue;
    source.declaredIn = { file: desired.source.file, document: desired.source.document };
    byId.set(sourceRefText(source.id), source);
  }
  const liveOnly: Source[] = [];
  for (const obj of inputs.live ?? []) {
    const source = readSource(obj, true);
    if (!source) continue;
    const declared = byId.get(sourceRefText(source.id));
    if (declared) declared.status = source.status;
    else liveOnly.push(source);
  }
  liveOnly.sort((a, b) => (sourceRefText(a.id) < sourceRefText(b.id) ? -1 : 1));
  return [...byId.values(), ...liveOnly];
}
