// The HelmReleases the sources of a cluster declare, each rendered after every source (so the
// ConfigMaps and HelmRepositories they read are known, declared or live), its objects added to the
// cluster's desired state as its own source's.
import { keyId, keyOf, type DesiredObject, type KubeObject } from '../model/index.js';
import type { RenderSourceInputs } from './types.js';
import {
  isFluxHelmRelease,
  readFluxHelmRelease,
  renderFluxHelmRelease,
  type ObjectLookup,
} from './helmrelease-render.js';
import type { RepositoryMatcher } from '../sources/scope.js';
import { sourceName, sourceRefText } from '../sources/identity.js';
import type { ClusterSourcesInput, ClusterSourcesRender } from './source-worklist.js';

interface ReleaseContext {
  input: ClusterSourcesInput;
  inputs: RenderSourceInputs;
  matcher: RepositoryMatcher;
  result: ClusterSourcesRender;
  byKey: Map<string, { desired: DesiredObject; source: string; controller?: string }>;
  /** What the cluster path declares (its ConfigMaps, HelmRepositories). */
  declared: readonly DesiredObject[];
}

function lookupIn(objects: readonly KubeObject[], desired: readonly DesiredObject[]): ObjectLookup {
  const named = (kind: string, namespace: string, name: string) => (obj: KubeObject) =>
    obj.kind === kind && obj.metadata?.namespace === namespace && obj.metadata?.name === name;
  const lookup: ObjectLookup = (kind, namespace, name) => objects.find(named(kind, namespace, name));
  lookup.desired = (kind, namespace, name) => desired.find((d) => named(kind, namespace, name)(d.object));
  return lookup;
}

/** Renders each release into `result`; true when the job's budget stopped the render. */
export function renderReleases(releases: readonly DesiredObject[], context: ReleaseContext): boolean {
  const { inputs, matcher, result, byKey } = context;
  const desired = [...[...byKey.values()].map((entry) => entry.desired), ...context.declared];
  const lookup = lookupIn([...desired.map((d) => d.object), ...context.input.live], desired);
  for (const declared of releases) {
    const source = readFluxHelmRelease(declared.object);
    source.declaredIn = { file: declared.source.file, document: declared.source.document };
    const name = sourceName(source.id);
    if (source.path !== undefined && !matcher.isThisRepository(source)) {
      result.sources.push({ source, scope: 'out-of-scope', objects: [] });
      continue;
    }
    const rendered = renderFluxHelmRelease(declared, source, inputs, lookup);
    result.errors.push(...rendered.errors);
    result.filesRead.push(...rendered.filesRead);
    result.notes.push(...rendered.notes);
    if (rendered.stopped) return true;
    if (rendered.notRendered?.length) {
      // Not rendered: listed so, with the reason, for this release only; the other sources go on.
      const own = sourceRefText(source.id);
      result.notRendered?.push(...rendered.notRendered.map((part) => ({ source: own, ...part })));
      result.sources.push({ source, scope: 'not-rendered', reason: rendered.notRendered[0]!.reason, objects: [] });
      continue;
    }
    if (rendered.objects.length === 0 && rendered.notes.some((note) => note.code === 'unsupported')) continue;
    const keys = [];
    for (const desired of rendered.objects) {
      const key = keyId(desired.key);
      const first = byKey.get(key);
      if (first) {
        const message = `also rendered by ${first.source}, which applies it first`;
        result.notes.push({ code: 'rendered-twice', source: name, key: desired.key, message });
        continue;
      }
      byKey.set(key, { desired, source: name });
      keys.push(desired.key);
    }
    result.sources.push({ source, scope: 'rendered', objects: keys });
  }
  return false;
}

/**
 * HelmReleases only live (no source of this repository declares them) whose chart comes from another
 * repository: a GitRepository that is not this repository's, or a HelmRepository or OCIRepository this
 * repository does not declare. They are that repository's sources: listed out of scope, so their
 * suspension lands on its dashboard and alerts, not here. `rendered` holds every object this
 * repository's sources declare.
 */
export function liveReleasesOfOthers(
  live: readonly KubeObject[],
  rendered: ReadonlySet<string>,
  matcher: RepositoryMatcher,
): ClusterSourcesRender['sources'] {
  return live.flatMap((object) => {
    if (!isFluxHelmRelease(object) || rendered.has(keyId(keyOf(object)))) return [];
    const source = readFluxHelmRelease(object);
    if (source.origin.type !== 'flux-source') return [];
    const { kind, namespace, name } = source.origin;
    const chartSource = keyId({ group: 'source.toolkit.fluxcd.io', kind, namespace, name });
    const elsewhere = kind === 'GitRepository' ? !matcher.isThisRepository(source) : !rendered.has(chartSource);
    return elsewhere ? [{ source, scope: 'out-of-scope' as const, objects: [] }] : [];
  });
}
