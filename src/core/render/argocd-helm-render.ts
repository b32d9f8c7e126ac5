// An Argo CD Application's Helm source, rendered as the repo-server renders it
// (reposerver/repository/repository.go helmTemplate, util/helm/cmd.go template): release name
// `helm.releaseName` or the Application's name; namespace `helm.namespace` or the destination's;
// `helm.kubeVersion`/`apiVersions` or the cluster's; `valueFiles` relative to the chart, globs expanded (a missing one
// skipped with `ignoreMissingValueFiles`, an error otherwise), then `valuesObject` (or `values`), then
// `parameters` as `--set` (`--set-string` with `forceString`; commas escaped unless the value is a
// `{…}` list) and `fileParameters` as `--set-file`; CRDs unless `skipCrds`. Argo CD's precedence
// follows: parameters over values over valueFiles over the chart's values.yaml.
import { stringify } from 'yaml';
import { renderChart, type ChartLocation, type ChartSetValue } from '../charts/index.js';
import { isPlainObject, type FieldSource, type PathSegment } from '../model/index.js';
import { compileDoublestarGlob } from '../patterns/index.js';
import { argoValuePlaces } from './chart-value-places.js';
import { optionalString, repositoryPath, stringList } from '../sources/fields.js';
import { sourceName } from '../sources/identity.js';
import { argoSourceAt } from '../sources/argocd.js';
import { sourceNotRendered } from './failed-render.js';
import type { DeclaredSource, RenderSourceInputs, SourceRender } from './types.js';
import type { ArgoTransforms } from '../sources/types.js';

/**
 * The Kubernetes version Argo CD hands Helm (and kustomize's `--helm-kube-version`): `<major>.<minor>.<patch>`
 * with the vendor suffix (`-eks-a737599`, `-gke.1245000`, `+k3s1`) left out, as gitops-engine's
 * GetServerVersion and the repo-server's parseKubeVersion take it (k8s.io/apimachinery ParseGeneric, Argo
 * CD 3.4), so a chart's `semverCompare ">=1.19.0"` holds on an EKS cluster as it does under Argo CD. A
 * version that does not start with one is passed on as it is: Helm then says what is wrong with it.
 */
export function argoKubeVersion(version: string | undefined): string | undefined {
  const parsed = version === undefined ? null : /^v?(\d+)\.(\d+)(\.\d+)?/.exec(version.trim());
  return parsed ? `v${parsed[1]}.${parsed[2]}${parsed[3] ?? ''}` : version;
}

/** Argo CD's cleanSetParameters: `,` escaped (unless already) so Helm does not split the value; `{a,b}` lists kept. */
export function argoSetValue(value: string): string {
  if (value.startsWith('{') && value.endsWith('}')) return value;
  return value.replace(/(?<!\\),/g, '\\,');
}

/** The source's objects are unknown: live objects in its namespace are set aside, never pruned or extra. */
function notRendered(declared: DeclaredSource, namespace: string, reason: string): SourceRender {
  const name = sourceName(declared.source.id);
  const file = declared.desired?.source.file ?? declared.source.declaredIn?.file ?? '';
  const field = `${argoSourceAt(declared.source.transforms as ArgoTransforms).field}.helm`;
  return sourceNotRendered(name, `Application ${name}: reported, not rendered: ${reason}`, {
    file,
    field,
    reason,
    namespace,
  });
}

function joinPath(dir: string, file: string): string {
  return repositoryPath(
    [dir, file]
      .filter(Boolean)
      .join('/')
      .replace(/\/\.\//g, '/'),
  );
}

/** `a/./b/../c` → `a/c`, relative to the repository root; undefined when `..` leaves it. */
function insideRepository(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.pop() === undefined) return undefined;
  }
  return parts.join('/');
}

/** A file the source reads: `$<ref>/…` in a multi-source Application's ref'd repository, else under `path`. */
type FileRead = { text: string; path: string } | { missing: string } | { reason: string };

/**
 * `$<ref>/path` as the repo-server resolves it (resolveReferencedSources, getResolvedRefValueFile): only in
 * a multi-source Application; the entry whose `ref` it names, its repository's root, no way out of it.
 * Its files are known when that repository is this one.
 */
function refFile(file: string, transforms: ArgoTransforms, inputs: RenderSourceInputs): FileRead | undefined {
  if (!transforms.sources || !file.startsWith('$')) return undefined;
  const slash = file.indexOf('/');
  const name = slash < 0 ? file : file.slice(0, slash);
  const refs = transforms.sources.filter((entry) => entry.ref !== undefined);
  const target = refs.find((entry) => `$${entry.ref}` === name);
  if (!target) {
    if (refs.length === 0)
      return { reason: `${file}: source referenced "${name}", but no source has a 'ref' field defined` };
    const known = refs.map((entry) => `$${entry.ref}`).join(', ');
    return { reason: `${file}: source referenced "${name}", which is not one of the available sources (${known})` };
  }
  if (target.origin.chart !== undefined)
    return { reason: `${file}: ${name} is a chart source, and Argo CD reads no files of a 'ref' source with a chart` };
  if (!(inputs.isThisRepository?.(target.origin.repoURL) ?? true))
    return { reason: `values from another repository ${target.origin.repoURL}` };
  const resolved = insideRepository(slash < 0 ? '' : file.slice(slash + 1));
  if (resolved === undefined) return { reason: `${file}: the path leaves the repository of ${name}` };
  const text = inputs.files.get(resolved);
  return text === undefined ? { missing: resolved } : { text, path: resolved };
}

function readSourceFile(file: string, path: string, transforms: ArgoTransforms, inputs: RenderSourceInputs): FileRead {
  const ref = refFile(file, transforms, inputs);
  if (ref) return ref;
  if (/^[a-z]+:\/\//i.test(file)) return { reason: `valueFiles ${file} is not a file of this repository` };
  const resolved = joinPath(path, file);
  const text = inputs.files.get(resolved);
  if (text === undefined || resolved.split('/').includes('..')) return { missing: resolved };
  return { text, path: resolved };
}

const GLOB_CHARACTERS = /[*?[]/;

/**
 * A valueFiles glob (repository.go getResolvedValueFiles): the files it matches under the resolved
 * pattern, in lexical order; none is an error unless `ignoreMissingValueFiles`.
 */
function globFiles(file: string, path: string, transforms: ArgoTransforms, inputs: RenderSourceInputs) {
  let pattern: string | undefined;
  if (transforms.sources && file.startsWith('$')) {
    const probe = refFile(file, transforms, inputs);
    if (probe && 'reason' in probe) return probe;
    pattern = insideRepository(file.slice(file.indexOf('/') + 1));
  } else pattern = insideRepository([path, file].filter(Boolean).join('/'));
  if (pattern === undefined) return { reason: `valueFiles ${file}: the path leaves the repository` };
  const compiled = compileDoublestarGlob(pattern);
  if (!compiled.ok) return { reason: `valueFiles ${file}: ${compiled.message}` };
  return [...inputs.files.keys()].filter((name) => compiled.pattern.test(name)).sort();
}

type ValueFile = { path: string; text: string };

/**
 * valueFiles resolved as the repo-server resolves them: in order, each once; a glob expands to its
 * matches (those also listed by name take their named place); a missing file or a glob matching
 * nothing is skipped with `ignoreMissingValueFiles`, an error otherwise.
 */
function resolveValueFiles(
  helm: Record<string, unknown>,
  path: string,
  transforms: ArgoTransforms,
  inputs: RenderSourceInputs,
): ValueFile[] | { reason: string } {
  const listed = stringList(helm.valueFiles);
  const named = new Set(listed.filter((file) => !GLOB_CHARACTERS.test(file)).map((file) => resolvedName(file, path)));
  const out = new Map<string, string>();
  for (const file of listed) {
    if (GLOB_CHARACTERS.test(file) && !/^[a-z]+:\/\//i.test(file)) {
      const matches = globFiles(file, path, transforms, inputs);
      if ('reason' in matches) return matches;
      if (matches.length === 0 && helm.ignoreMissingValueFiles !== true)
        return { reason: `values file glob "${file}" matched no files` };
      for (const match of matches) if (!named.has(match) && !out.has(match)) out.set(match, inputs.files.get(match)!);
      continue;
    }
    const read = readSourceFile(file, path, transforms, inputs);
    if ('reason' in read) return read;
    if ('missing' in read) {
      if (helm.ignoreMissingValueFiles === true) continue;
      return { reason: `valueFiles ${file}: ${read.missing} does not exist` };
    }
    if (!out.has(read.path)) out.set(read.path, read.text);
  }
  return [...out].map(([name, text]) => ({ path: name, text }));
}

/** The repository path a named value file resolves to (a `$ref` one's in the ref'd repository, this one). */
function resolvedName(file: string, path: string): string {
  if (file.startsWith('$')) return insideRepository(file.slice(file.indexOf('/') + 1)) ?? file;
  return joinPath(path, file);
}

/** The value files' texts in order, then the values the source writes itself (`valuesObject`, else `values`). */
function valueTexts(helm: Record<string, unknown>, files: readonly ValueFile[]): string[] {
  const texts = files.map((file) => file.text);
  if (isPlainObject(helm.valuesObject)) texts.push(stringify(helm.valuesObject));
  else if (typeof helm.values === 'string' && helm.values.trim() !== '') texts.push(helm.values);
  return texts;
}

/** Where `helm` sits in the Application: `spec.source.helm`, or `spec.sources[n].helm` of the source rendered. */
function helmPath(declared: DeclaredSource): PathSegment[] | undefined {
  const spec = declared.desired?.object.spec;
  if (!isPlainObject(spec)) return undefined;
  const index = (declared.source.transforms as ArgoTransforms).sourceIndex;
  if (index === undefined) return isPlainObject(spec.source) ? ['spec', 'source', 'helm'] : undefined;
  const entry = Array.isArray(spec.sources) ? spec.sources[index] : undefined;
  return isPlainObject(entry) ? ['spec', 'sources', { index }, 'helm'] : undefined;
}

function setValues(
  helm: Record<string, unknown>,
  path: string,
  transforms: ArgoTransforms,
  inputs: RenderSourceInputs,
): ChartSetValue[] | { reason: string } {
  const sets: ChartSetValue[] = [];
  const strings: ChartSetValue[] = [];
  for (const p of Array.isArray(helm.parameters) ? helm.parameters : []) {
    if (!isPlainObject(p) || typeof p.name !== 'string') continue;
    const list = p.forceString === true ? strings : sets;
    const value = argoSetValue(String(p.value ?? ''));
    const at = list.findIndex((entry) => entry.name === p.name);
    const entry: ChartSetValue = { name: p.name, value, kind: p.forceString === true ? 'string' : 'set' };
    if (at >= 0) list[at] = entry;
    else list.push(entry);
  }
  const fileSets: ChartSetValue[] = [];
  for (const p of Array.isArray(helm.fileParameters) ? helm.fileParameters : []) {
    if (!isPlainObject(p) || typeof p.name !== 'string' || typeof p.path !== 'string') continue;
    const read = readSourceFile(p.path, path, transforms, inputs);
    if ('reason' in read) return read;
    if ('missing' in read) return { reason: `fileParameters ${p.name}: ${read.missing} does not exist` };
    fileSets.push({ name: p.name, value: read.text, kind: 'file' });
  }
  return [...sets, ...strings, ...fileSets];
}

/** The chart: the path's files (relative to it), or a Helm repository's chart by name and version. */
function argoChart(
  declared: DeclaredSource,
  files: ReadonlyMap<string, string>,
): { chart: ChartLocation; filesRead: string[] } {
  const { source } = declared;
  if (source.path === undefined) {
    const origin = source.origin as { repoURL: string; targetRevision?: string; chart?: string };
    const url = /^[a-z]+:\/\//i.test(origin.repoURL) ? origin.repoURL : `oci://${origin.repoURL}`;
    return {
      chart: { type: 'repository', url, name: origin.chart ?? '', version: origin.targetRevision ?? '' },
      filesRead: [],
    };
  }
  const prefix = source.path ? `${source.path}/` : '';
  const chartFiles = new Map<string, string>();
  for (const [file, text] of files) if (file.startsWith(prefix)) chartFiles.set(file.slice(prefix.length), text);
  return {
    chart: { type: 'files', files: chartFiles },
    filesRead: [...chartFiles.keys()].map((file) => prefix + file),
  };
}

/** Every field of the chart's output: the Application's chart, with where its values are set. */
function chartOrigin(
  declared: DeclaredSource,
  helm: Record<string, unknown>,
  chart: ChartLocation,
  valueFiles: readonly ValueFile[],
): FieldSource {
  const file = declared.desired?.source.file;
  const values = argoValuePlaces(declared.desired, helm, chart, valueFiles, helmPath(declared));
  const source = `Application ${sourceName(declared.source.id)}`;
  return { origin: { type: 'source-transform', source, transform: 'chart', ...(file ? { file } : {}), values } };
}

export function renderArgoHelm(declared: DeclaredSource, inputs: RenderSourceInputs): SourceRender {
  const { source } = declared;
  const transforms = source.transforms as ArgoTransforms;
  const helm = transforms.helm ?? {};
  const path = source.path ?? '';
  const { chart, filesRead } = argoChart(declared, inputs.files);
  const destination = transforms.destination.namespace ?? inputs.defaultNamespace;
  const files = resolveValueFiles(helm, path, transforms, inputs);
  if ('reason' in files) return notRendered(declared, destination, files.reason);
  const set = setValues(helm, path, transforms, inputs);
  if ('reason' in set) return notRendered(declared, destination, set.reason);
  const kubeVersion = argoKubeVersion(optionalString(helm.kubeVersion) ?? inputs.capabilities?.kubeVersion);
  const apiVersions = stringList(helm.apiVersions);
  const origin = chartOrigin(declared, helm, chart, files);
  const rendered = renderChart({
    request: {
      where: chart.type === 'files' ? path || '.' : `${chart.url} ${chart.name} ${chart.version}`,
      chart,
      releaseName: optionalString(helm.releaseName) ?? source.id.name,
      namespace: optionalString(helm.namespace) ?? destination,
      valueFiles: valueTexts(helm, files),
      set,
      ...(kubeVersion ? { kubeVersion } : {}),
      apiVersions: apiVersions.length > 0 ? apiVersions : (inputs.capabilities?.apiVersions ?? []),
      includeCrds: helm.skipCrds !== true,
      ...(helm.skipTests === true ? { skipTests: true } : {}),
    },
    where: chart.type === 'files' ? path : chart.name,
    origin,
    defaultNamespace: destination,
    ...(inputs.charts ? { charts: inputs.charts } : {}),
    ...(inputs.kindScopes ? { kindScopes: inputs.kindScopes } : {}),
    ...(inputs.budget ? { budget: inputs.budget } : {}),
  });
  // Every file of the chart is read, rendered or not: a file not fetched yet is fetched, and the chart rendered again.
  if (!rendered.ok) return { ...notRendered(declared, destination, rendered.reason), filesRead };
  return {
    objects: rendered.objects,
    errors: rendered.errors,
    skipped: [],
    filesRead,
    notes: [],
    ...(rendered.stopped ? { stopped: true as const } : {}),
  };
}
