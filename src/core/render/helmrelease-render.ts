// A Flux HelmRelease (helm.toolkit.fluxcd.io/v2) declared in this repository, rendered as
// helm-controller renders it: the chart of `spec.chart.spec` (a GitRepository path of this repository,
// or a HelmRepository chart by name and version, found offline), values merged in Flux's order
// (internal/chartutil/values.go: `valuesFrom` in order, then `spec.values`), the release
// `spec.releaseName` or `[<targetNamespace>-]<name>` (shortened past 53 characters, internal/release/name.go
// ShortenName) in `targetNamespace` or the object's namespace, CRDs unless `install.crds: Skip`, and helm-controller's owner labels (internal/postrender/build.go).
import {
  mergeValues,
  readValues,
  renderChart,
  secretPlaceholder,
  setPathValue,
  isExactVersion,
  parseSemver,
  satisfiesRange,
  type ChartLocation,
  type PostRenderer,
  type Values,
} from '../charts/index.js';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { fieldPath } from '../k8s/index.js';
import {
  isPlainObject,
  type ChartValuePlaces,
  type DesiredObject,
  type FieldSource,
  type KubeObject,
} from '../model/index.js';
import { field, optionalString, repositoryPath, stringAt, stringList } from '../sources/fields.js';
import { fluxHelmReleaseRef, sourceName, stampDesired } from '../sources/identity.js';
import type { RenderSourceInputs, SourceRender } from './types.js';
import type { Source } from '../sources/types.js';
import { fluxValuePlaces, sourceRootPath } from './chart-value-places.js';
import { sourceNotRendered } from './failed-render.js';

/** What a HelmRelease's render needs to look up: ConfigMaps and HelmRepositories, declared or live. */
/**
 * An object the release reads (a ConfigMap of `valuesFrom`, a HelmRepository), from the repository or
 * the snapshot; `desired`: the repository's own, with its source map (codify edits a ConfigMap's values).
 */
export type ObjectLookup = ((kind: string, namespace: string, name: string) => KubeObject | undefined) & {
  desired?: (kind: string, namespace: string, name: string) => DesiredObject | undefined;
};

export function isFluxHelmRelease(obj: KubeObject): boolean {
  return obj.kind === 'HelmRelease' && (obj.apiVersion ?? '').startsWith('helm.toolkit.fluxcd.io/');
}

/** The HelmRelease as a source: its chart's path when the chart is a GitRepository's. */
export function readFluxHelmRelease(obj: KubeObject): Source {
  const namespace = obj.metadata?.namespace ?? '';
  const chartRef = field(obj, 'spec', 'chartRef');
  const ref = chartRef ?? field(obj, 'spec', 'chart', 'spec', 'sourceRef');
  const kind = stringAt(ref, 'kind') ?? (chartRef ? 'OCIRepository' : 'HelmRepository');
  const chart = stringAt(obj, 'spec', 'chart', 'spec', 'chart') ?? '';
  return {
    id: fluxHelmReleaseRef(namespace, obj.metadata?.name ?? ''),
    ...(!chartRef && (kind === 'GitRepository' || kind === 'Bucket') ? { path: repositoryPath(chart) } : {}),
    origin: {
      type: 'flux-source',
      kind,
      namespace: stringAt(ref, 'namespace') ?? namespace,
      name: stringAt(ref, 'name') ?? '',
    },
    transforms: {
      controller: 'flux',
      commonMetadata: { labels: {}, annotations: {} },
      patches: [],
      images: [],
      components: [],
      prune: true,
      suspend: field(obj, 'spec', 'suspend') === true,
      ...(optionalString(field(obj, 'spec', 'targetNamespace'))
        ? { targetNamespace: String(field(obj, 'spec', 'targetNamespace')) }
        : {}),
    },
  };
}

/** The values, and the Secrets (`namespace/name`) they hold as `secretPlaceholder(index)`. */
type Merged = { values: Values; secrets: string[] } | { reason: string };

/** valuesFrom in order, then spec.values (ChartValuesFromReferences). */
function fluxValues(obj: KubeObject, lookup: ObjectLookup): Merged {
  const namespace = obj.metadata?.namespace ?? '';
  let values: Values = {};
  const secrets: string[] = [];
  const refs = field(obj, 'spec', 'valuesFrom');
  for (const ref of Array.isArray(refs) ? refs : []) {
    if (!isPlainObject(ref)) continue;
    const kind = ref.kind === 'Secret' ? 'Secret' : 'ConfigMap';
    const name = String(ref.name ?? '');
    const key = optionalString(ref.valuesKey) ?? 'values.yaml';
    const targetPath = optionalString(ref.targetPath);
    const what = `valuesFrom ${kind} ${namespace}/${name} key ${key}`;
    if (kind === 'Secret') {
      // The snapshot holds no Secret value: a targeted one renders as a marked placeholder.
      if (!targetPath) return { reason: `${what}: values from a Secret are not in the snapshot` };
      secrets.push(`${namespace}/${name}`);
      if (!setPathValue(values, targetPath, `'${secretPlaceholder(secrets.length - 1)}'`))
        return { reason: `${what}: targetPath ${targetPath} is not a values path` };
      continue;
    }
    const object = lookup('ConfigMap', namespace, name);
    const text = isPlainObject(object?.data) ? object.data[key] : undefined;
    if (typeof text !== 'string') {
      if (ref.optional === true) continue;
      return { reason: `${what} is not in the repository or the snapshot` };
    }
    if (targetPath) {
      if (!setPathValue(values, targetPath, text))
        return { reason: `${what}: targetPath ${targetPath} is not a values path` };
      continue;
    }
    const read = readValues(text);
    if ('problem' in read) return { reason: `${what}: ${read.problem}` };
    values = mergeValues(values, read.values);
  }
  const own = field(obj, 'spec', 'values');
  return { values: mergeValues(values, isPlainObject(own) ? own : {}), secrets };
}

/** The HelmRepository a chart comes from (https, or OCI with `type: oci`), as a repository chart. */
function helmRepositoryChart(
  namespace: string,
  name: string,
  chart: string,
  version: string,
  lookup: ObjectLookup,
): ChartLocation | { reason: string } {
  const repo = lookup('HelmRepository', namespace, name);
  const url = stringAt(repo, 'spec', 'url');
  if (!url) return { reason: `HelmRepository ${namespace}/${name} is not in the repository or the snapshot` };
  const oci = stringAt(repo, 'spec', 'type') === 'oci' && !url.startsWith('oci://') ? `oci://${url}` : url;
  return { type: 'repository', url: oci, name: chart, version };
}

/**
 * An OCIRepository's artifact as a chart: `oci://host/path/<name>` at its manifest digest, else its
 * semver range, else its tag, else the tag `latest` (source-controller's precedence: digest, then semver,
 * then tag, then `latest`).
 */
function ociRepositoryChart(namespace: string, name: string, lookup: ObjectLookup): ChartLocation | { reason: string } {
  const repo = lookup('OCIRepository', namespace, name);
  const url = stringAt(repo, 'spec', 'url');
  if (!url) return { reason: `OCIRepository ${namespace}/${name} is not in the repository or the snapshot` };
  const ref = field(repo, 'spec', 'ref');
  const manifest = stringAt(ref, 'digest') || undefined;
  if (manifest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(manifest))
    return { reason: `OCIRepository ${namespace}/${name}: ref.digest ${manifest} is not a sha256 digest` };
  // Without a digest, semver or tag, source-controller pulls the tag `latest`, not the highest version.
  const version = manifest ? '' : stringAt(ref, 'semver') || stringAt(ref, 'tag') || 'latest';
  const at = url.replace(/\/+$/, '').lastIndexOf('/');
  const chart = { url: url.slice(0, at), name: url.slice(at + 1).replace(/\/+$/, ''), version };
  return { type: 'repository', ...chart, ...(manifest ? { manifest } : {}) };
}

/** The live HelmRelease of the same namespace and name, if the snapshot has it. */
function liveRelease(obj: KubeObject, live: readonly KubeObject[]): KubeObject | undefined {
  return live.find(
    (o) =>
      isFluxHelmRelease(o) &&
      o.metadata?.namespace === obj.metadata?.namespace &&
      o.metadata?.name === obj.metadata?.name,
  );
}

/**
 * The chart version the cluster runs when HEAD asks for a range (`6.x`): the live HelmRelease's
 * installed version (status.history, else lastAttemptedRevision) while the range allows it, so
 * the desired state is the release as installed rather than the newest version the range allows.
 */
function installedVersion(obj: KubeObject, asked: string, live: readonly KubeObject[]): string {
  if (isExactVersion(asked)) return asked;
  const running = liveRelease(obj, live);
  const history = field(running, 'status', 'history');
  const installed =
    (Array.isArray(history) ? stringAt(history[0], 'chartVersion') : undefined) ??
    stringAt(running, 'status', 'lastAttemptedRevision');
  const parsed = installed ? parseSemver(installed) : undefined;
  return installed && parsed && satisfiesRange(parsed, asked) ? installed : asked;
}

/**
 * Whether the release's objects are an upgrade's (`helm template --is-upgrade`): the newest entry of the
 * live status.history is a release that is not uninstalled, past revision 1 or declared otherwise than the
 * live HelmRelease holds it. helm-controller installs a release it does not find and upgrades one in
 * storage (internal/reconcile/state.go DetermineReleaseState, atomic_release.go actionForState), but leaves
 * an installed release in sync alone: revision 1 is the install's output until a change of the HelmRelease
 * (a pull request's, say) upgrades it.
 */
function releasesAsUpgrade(obj: KubeObject, live: readonly KubeObject[]): boolean {
  const running = liveRelease(obj, live);
  const history = field(running, 'status', 'history');
  const latest: unknown = Array.isArray(history) ? history[0] : undefined;
  const revision = field(latest, 'version');
  if (stringAt(latest, 'status') === 'uninstalled' || typeof revision !== 'number') return false;
  return revision > 1 || !heldAsDeclared(obj.spec, running?.spec);
}

/** Whether live holds every value `declared` sets (live may add defaults the API server or controller set). */
function heldAsDeclared(declared: unknown, live: unknown): boolean {
  if (isPlainObject(declared))
    return isPlainObject(live) && Object.entries(declared).every(([key, value]) => heldAsDeclared(value, live[key]));
  return isDeepStrictEqual(declared, live);
}

/** A repository chart: `chart.spec` of a HelmRepository, or `chartRef` to an OCIRepository or a HelmChart. */
function repositoryChart(
  obj: KubeObject,
  source: Source,
  inputs: RenderSourceInputs,
  lookup: ObjectLookup,
): ChartLocation | { reason: string } {
  const origin = source.origin as { kind: string; namespace: string; name: string };
  let chart: ChartLocation | { reason: string };
  if (origin.kind === 'OCIRepository') chart = ociRepositoryChart(origin.namespace, origin.name, lookup);
  else if (origin.kind === 'HelmChart') {
    const helmChart = lookup('HelmChart', origin.namespace, origin.name);
    const ref = field(helmChart, 'spec', 'sourceRef');
    if (!helmChart)
      return { reason: `HelmChart ${origin.namespace}/${origin.name} is not in the repository or the snapshot` };
    if (stringAt(ref, 'kind') !== 'HelmRepository')
      return {
        reason: `HelmChart ${origin.namespace}/${origin.name}: a chart of a ${stringAt(ref, 'kind')} is not followed`,
      };
    const chartName = stringAt(helmChart, 'spec', 'chart') ?? '';
    const version = stringAt(helmChart, 'spec', 'version') ?? '*';
    chart = helmRepositoryChart(origin.namespace, stringAt(ref, 'name') ?? '', chartName, version, lookup);
  } else if (origin.kind === 'HelmRepository') {
    const spec = field(obj, 'spec', 'chart', 'spec');
    const version = stringAt(spec, 'version') ?? '*';
    chart = helmRepositoryChart(origin.namespace, origin.name, stringAt(spec, 'chart') ?? '', version, lookup);
  } else
    return { reason: `${origin.kind} ${origin.namespace}/${origin.name} is not in the repository or the snapshot` };
  if ('reason' in chart || chart.type !== 'repository') return chart;
  const valuesFiles = archiveValuesFiles(obj, origin, lookup);
  const located = { ...chart, ...(valuesFiles ? { valuesFiles } : {}) };
  if (chart.manifest) return located;
  return { ...located, version: installedVersion(obj, chart.version, inputs.live) };
}

/** The HelmRelease's `chart.spec`, or the HelmChart's `spec` it names by `chartRef`: where `valuesFiles` are set. */
function chartSpec(obj: KubeObject, origin: { kind: string; namespace: string; name: string }, lookup: ObjectLookup) {
  return origin.kind === 'HelmChart'
    ? field(lookup('HelmChart', origin.namespace, origin.name), 'spec')
    : field(obj, 'spec', 'chart', 'spec');
}

/**
 * `valuesFiles` of a repository chart: files inside the chart archive, merged in order into the values that
 * replace its values.yaml (source-controller's remote builder, mergeChartValues); read where the chart is.
 */
function archiveValuesFiles(
  obj: KubeObject,
  origin: { kind: string; namespace: string; name: string },
  lookup: ObjectLookup,
): { paths: string[]; ignoreMissing: boolean } | undefined {
  const spec = chartSpec(obj, origin, lookup);
  const paths = stringList(field(spec, 'valuesFiles'));
  if (paths.length === 0) return undefined;
  return { paths, ignoreMissing: field(spec, 'ignoreMissingValuesFiles') === true };
}

/**
 * `chart.spec.valuesFiles` of a chart of this repository: paths relative to the source's root, merged in
 * order into the values that replace the chart's values.yaml (source-controller's local builder,
 * mergeFileValues); a missing one fails the chart unless `ignoreMissingValuesFiles`.
 */
function localValuesFiles(spec: unknown, files: ReadonlyMap<string, string>): { text: string } | { reason: string } {
  let merged: Values = {};
  for (const file of stringList(field(spec, 'valuesFiles'))) {
    const path = sourceRootPath(file);
    const text = files.get(path);
    if (text === undefined) {
      if (field(spec, 'ignoreMissingValuesFiles') === true) continue;
      return { reason: `values files merge error: no values file found at path '/${path}' (reference '${file}')` };
    }
    const read = readValues(text);
    if ('problem' in read)
      return { reason: `values files merge error: unmarshaling values from '${file}' failed: ${read.problem}` };
    merged = mergeValues(merged, read.values);
  }
  return { text: JSON.stringify(merged) };
}

/** The chart's files (its directory's files, relative to it); `valuesFiles` replace its values.yaml. */
function chartLocation(
  obj: KubeObject,
  source: Source,
  inputs: RenderSourceInputs,
  lookup: ObjectLookup,
): ChartLocation | { reason: string } {
  const spec = field(obj, 'spec', 'chart', 'spec');
  if (source.path === undefined) return repositoryChart(obj, source, inputs, lookup);
  const prefix = source.path ? `${source.path}/` : '';
  const files = new Map<string, string>();
  for (const [path, text] of inputs.files) if (path.startsWith(prefix)) files.set(path.slice(prefix.length), text);
  if (!files.has('Chart.yaml')) return { reason: `${source.path || '.'} holds no Chart.yaml` };
  if (stringList(field(spec, 'valuesFiles')).length > 0) {
    const merged = localValuesFiles(spec, inputs.files);
    if ('reason' in merged) return merged;
    files.set('values.yaml', merged.text);
  }
  return { type: 'files', files };
}

/** `spec.postRenderers[].kustomize` (patches, images), as helm-controller applies them in order. */
function postRenderersOf(obj: KubeObject): { list: PostRenderer[] } | { reason: string } {
  const list: PostRenderer[] = [];
  const given = field(obj, 'spec', 'postRenderers');
  for (const [index, entry] of (Array.isArray(given) ? given : []).entries()) {
    const kustomize = field(entry, 'kustomize');
    if (!isPlainObject(kustomize)) continue;
    const unknown = Object.keys(kustomize).filter((key) => key !== 'patches' && key !== 'images');
    if (unknown.length > 0)
      return { reason: `postRenderers[${index}].kustomize.${unknown[0]} is not applied (only patches and images are)` };
    const patches = Array.isArray(kustomize.patches) ? kustomize.patches : [];
    const images = Array.isArray(kustomize.images) ? kustomize.images : [];
    list.push({ patches, images });
  }
  return { list };
}

/**
 * The release's objects are unknown: said in the notes and as a part not rendered (so a plan and a
 * report say why, and live objects in the release's namespace are set aside, never pruned or extra).
 */
function notRendered(declared: DesiredObject, source: Source, reason: string): SourceRender {
  const name = sourceName(source.id);
  const at = field(declared.object, 'spec', 'chartRef') === undefined ? 'spec.chart' : 'spec.chartRef';
  const { file, location } = declared.source;
  const line = location?.line;
  const { namespace } = releaseOf(declared.object, source);
  return sourceNotRendered(name, `HelmRelease ${name}: reported, not rendered: ${reason}`, {
    file,
    ...(line ? { line } : {}),
    field: at,
    reason,
    namespace,
  });
}

/**
 * helm-controller's release name past Helm's 53-character limit: its first 40 characters, `-` and the first
 * 12 hex digits of the sha256 of the whole name (internal/release/name.go ShortenName).
 */
function shortenReleaseName(name: string): string {
  if (name.length <= 53) return name;
  return `${name.slice(0, 40)}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/**
 * The release as helm-controller installs it: `spec.releaseName` or `[<targetNamespace>-]<name>`, shortened
 * past 53 characters, in the target namespace.
 */
function releaseOf(obj: KubeObject, source: Source): { releaseName: string; namespace: string } {
  const targetNamespace = optionalString(field(obj, 'spec', 'targetNamespace'));
  const releaseName =
    optionalString(field(obj, 'spec', 'releaseName')) ??
    (targetNamespace ? `${targetNamespace}-${source.id.name}` : source.id.name);
  return { releaseName: shortenReleaseName(releaseName), namespace: targetNamespace ?? source.id.namespace };
}

function secretNotes(
  name: string,
  fromSecret: ReadonlyArray<{ desired: DesiredObject; pointer: string; secrets: string[] }>,
) {
  return fromSecret.map(({ desired, pointer, secrets }) => ({
    code: 'not-checkable' as const,
    source: name,
    key: desired.key,
    pointer,
    message: `${fieldPath(pointer, { ...desired.key, object: desired.object })} is from Secret ${secrets.join(', ')} (valuesFrom of HelmRelease ${name}), not checked`,
  }));
}

/** Every field of the chart's output: the HelmRelease's chart, with where its values are set. */
function chartOrigin(declared: DesiredObject, values: ChartValuePlaces, name: string): FieldSource {
  const file = declared.source.file;
  return { origin: { type: 'source-transform', source: `HelmRelease ${name}`, transform: 'chart', file, values } };
}

export function renderFluxHelmRelease(
  declared: DesiredObject,
  source: Source,
  inputs: RenderSourceInputs,
  lookup: ObjectLookup,
): SourceRender {
  const obj = declared.object;
  const name = sourceName(source.id);
  const postRenderers = postRenderersOf(obj);
  if ('reason' in postRenderers) return notRendered(declared, source, postRenderers.reason);
  const chart = chartLocation(obj, source, inputs, lookup);
  if ('reason' in chart) return notRendered(declared, source, chart.reason);
  const values = fluxValues(obj, lookup);
  if ('reason' in values) return notRendered(declared, source, values.reason);
  const kubeVersion = inputs.capabilities?.kubeVersion;
  const origin = chartOrigin(declared, fluxValuePlaces(declared, chart, inputs.files, lookup), name);
  const where = chart.type === 'files' ? (source.path ?? '') : `${chart.name}`;
  const rendered = renderChart({
    request: {
      where: chart.type === 'files' ? where || '.' : `${chart.url} ${chart.name} ${chart.version}`,
      chart,
      ...releaseOf(obj, source),
      valueFiles: [JSON.stringify(values.values)],
      set: [],
      ...(kubeVersion ? { kubeVersion } : {}),
      apiVersions: inputs.capabilities?.apiVersions ?? [],
      includeCrds: stringAt(obj, 'spec', 'install', 'crds') !== 'Skip',
      ...(releasesAsUpgrade(obj, inputs.live) ? { isUpgrade: true } : {}),
    },
    where,
    origin,
    ...(postRenderers.list.length > 0 ? { postRenderers: postRenderers.list } : {}),
    ...(values.secrets.length > 0 ? { secrets: values.secrets } : {}),
    ...(inputs.charts ? { charts: inputs.charts } : {}),
    ...(inputs.kindScopes ? { kindScopes: inputs.kindScopes } : {}),
    ...(inputs.budget ? { budget: inputs.budget } : {}),
  });
  // Every file of the chart is read, rendered or not: a file not fetched yet is fetched, and the chart rendered again.
  const prefix = source.path ? `${source.path}/` : '';
  const filesRead = chart.type === 'files' ? [...chart.files.keys()].map((file) => prefix + file) : [];
  if (!rendered.ok) return { ...notRendered(declared, source, rendered.reason), filesRead };
  const stamp: FieldSource = { origin: { ...origin.origin, transform: 'stamp' } as FieldSource['origin'] };
  for (const desired of rendered.objects) stampDesired(desired, source.id, stamp);
  const { objects, errors } = rendered;
  const stopped = rendered.stopped ? { stopped: true as const } : {};
  return { objects, errors, skipped: [], filesRead, notes: secretNotes(name, rendered.fromSecret), ...stopped };
}
