// The commit a suspended source has applied, as its controller records it. A Flux Kustomization and an
// Argo CD Application name the commit (`status.lastAppliedRevision`, `status.sync.revision`). A Flux
// HelmRelease names none: helm-controller records the chart version it released
// (`status.lastAttemptedRevision`, `status.history[0].chartVersion`) and the generation of the spec it
// released (`status.lastAttemptedGeneration`), and that spec (chart and values) is what the
// Kustomization applying the HelmRelease put there. So a HelmRelease has applied the commit its
// Kustomization applied once its latest release is deployed from the current generation, at the
// chart version it last attempted.
import { field, stringAt } from '../health/read.js';
import type { KubeObject } from '../model/index.js';
import { readSource, sourceRefOf, sourceRefText, stampedSource } from '../sources/index.js';
import { revisionCommit } from './procedure.js';

/** Whether helm-controller has released the HelmRelease's current spec, and it is deployed. */
function releasedCurrentSpec(release: KubeObject): boolean {
  const generation = field(release, 'metadata', 'generation');
  const attempted =
    field(release, 'status', 'lastAttemptedGeneration') ?? field(release, 'status', 'observedGeneration');
  if (typeof generation !== 'number' || attempted !== generation) return false;
  const history = field(release, 'status', 'history');
  const latest: unknown = Array.isArray(history) ? history[0] : undefined;
  if (field(latest, 'status') !== 'deployed') return false;
  const version = stringAt(release, 'status', 'lastAttemptedRevision');
  return version !== undefined && field(latest, 'chartVersion') === version;
}

/** The commit the Kustomization that applies `object` (by its stamps) has applied. */
function applierCommit(object: KubeObject, live: Iterable<KubeObject>): string | undefined {
  const ref = stampedSource(object);
  if (!ref) return undefined;
  const wanted = sourceRefText(ref);
  for (const candidate of live) {
    const source = readSource(candidate, true);
    if (source && sourceRefText(source.id) === wanted) return revisionCommit(source.status?.appliedRevision);
  }
  return undefined;
}

/**
 * The commit `source` (a Kustomization, Application or HelmRelease of the snapshot) has applied;
 * undefined when its controller has not (yet) applied a revision that names one.
 */
export function appliedCommitOf(source: KubeObject, live: Iterable<KubeObject>): string | undefined {
  const read = readSource(source, true);
  if (read) return revisionCommit(read.status?.appliedRevision);
  if (sourceRefOf(source)?.kind !== 'HelmRelease') return undefined;
  return releasedCurrentSpec(source) ? applierCommit(source, live) : undefined;
}
