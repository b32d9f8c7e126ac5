// desired = render(Application source path) + overrides + stamps, as Argo CD's repo server and
// controller make it: a kustomization built after `kustomize edit` with `spec.source.kustomize`
// (util/kustomize/kustomize.go), or a directory of manifests (top level only unless `recurse`, then
// exclude and include globs: reposerver/repository/repository.go); `destination.namespace` on
// namespaced objects that name none (controller/state.go); the tracking stamp of argocd-cm's method.
import { findKustomizationFile, lastDeclarationWins, renderManifests, type KustomizeHelm } from '../manifests/index.js';
import type { DesiredObject, NotRenderedSource, SkippedDocument, SourceProblem } from '../model/index.js';
import { compileArgoGlob, type Pattern } from '../patterns/index.js';
import { argoKubeVersion, renderArgoHelm } from './argocd-helm-render.js';
import { argoSettingsOf } from './argocd-ignore.js';
import { renderThroughWrapper } from './wrapped.js';
import { withSourceFiles } from './argocd-source-files.js';
import { sourceNotRendered } from './failed-render.js';
import type { DeclaredSource, RenderSourceInputs, SourceRender } from './types.js';
import { sourceName, stampDesired } from '../sources/identity.js';
import type { ArgoSourceEntry, ArgoTransforms } from '../sources/types.js';
import { argoSourceAt } from '../sources/argocd.js';

const MANIFEST = /\.(ya?ml|json)$/i;

/** The directory source's include and exclude globs (RE2, linear time), or what is wrong with one. */
function directoryGlobs(
  directory: ArgoTransforms['directory'],
  at = 'spec.source',
): { include?: Pattern; exclude?: Pattern } | { problem: string } {
  const globs: { include?: Pattern; exclude?: Pattern } = {};
  for (const field of ['include', 'exclude'] as const) {
    const glob = directory?.[field];
    if (!glob) continue;
    const compiled = compileArgoGlob(glob);
    if (!compiled.ok) return { problem: `${at}.directory.${field}: ${compiled.message}` };
    globs[field] = compiled.pattern;
  }
  return globs;
}

/** The files a directory source reads, relative paths matched as Argo CD matches them. */
export function directoryFiles(
  files: ReadonlyMap<string, string>,
  path: string,
  directory: ArgoTransforms['directory'],
  at?: string,
): { files: string[] } | { problem: string } {
  const globs = directoryGlobs(directory, at);
  if ('problem' in globs) return globs;
  const { include, exclude } = globs;
  const prefix = path ? `${path}/` : '';
  const chosen: string[] = [];
  for (const [file, text] of files) {
    if (!file.startsWith(prefix) || !MANIFEST.test(file)) continue;
    const relative = file.slice(prefix.length);
    if (!directory?.recurse && relative.includes('/')) continue;
    if (exclude?.test(relative) || (include && !include.test(relative))) continue;
    if (text.includes('+argocd:skip-file-rendering')) continue;
    chosen.push(file);
  }
  return { files: chosen.sort() };
}

function renderDirectory(
  declared: DeclaredSource,
  inputs: RenderSourceInputs,
  transforms: ArgoTransforms,
): SourceRender {
  const objects: DesiredObject[] = [];
  const errors: SourceProblem[] = [];
  const skipped: SkippedDocument[] = [];
  const filesRead: string[] = [];
  const notRendered: NotRenderedSource[] = [];
  const defaultNamespace = transforms.destination.namespace ?? inputs.defaultNamespace;
  const at = argoSourceAt(transforms).field;
  const chosen = directoryFiles(inputs.files, declared.source.path ?? '', transforms.directory, at);
  if ('problem' in chosen) {
    const file = declared.desired?.source.file ?? declared.source.path ?? '.';
    return { objects: [], errors: [{ file, message: chosen.problem }], skipped, filesRead, notes: [] };
  }
  for (const file of chosen.files) {
    const rendered = renderManifests(inputs.files, file, {
      defaultNamespace,
      ...(inputs.cache ? { cache: inputs.cache } : {}),
      ...(inputs.kindScopes ? { kindScopes: inputs.kindScopes } : {}),
      ...(inputs.budget ? { budget: inputs.budget } : {}),
    });
    objects.push(...rendered.objects);
    errors.push(...rendered.errors);
    skipped.push(...rendered.skipped);
    filesRead.push(...rendered.filesRead);
    notRendered.push(...(rendered.notRendered ?? []));
    if (rendered.stopped) return { objects: [], errors, skipped, filesRead, notes: [], stopped: true };
  }
  // Argo CD keeps the last of an object two files declare ("appeared 2 times among application resources").
  const once = lastDeclarationWins(objects);
  skipped.push(...once.skipped);
  return {
    objects: once.objects,
    errors,
    skipped,
    filesRead,
    notes: [],
    ...(notRendered.length ? { notRendered } : {}),
  };
}

/** `spec.source.kustomize` as the overrides Argo CD's `kustomize edit` writes, traced to the Application's fields. */
function renderArgoKustomize(
  declared: DeclaredSource,
  inputs: RenderSourceInputs,
  transforms: ArgoTransforms,
): SourceRender {
  const kustomize = transforms.kustomize;
  const { segments } = argoSourceAt(transforms);
  const pointer = `/${segments.join('/')}/kustomize`;
  return renderThroughWrapper(
    declared,
    inputs,
    {
      resources: ['.'],
      ...(kustomize?.namespace ? { namespace: kustomize.namespace } : {}),
      ...(kustomize?.namePrefix ? { namePrefix: kustomize.namePrefix } : {}),
      ...(kustomize?.nameSuffix ? { nameSuffix: kustomize.nameSuffix } : {}),
      commonLabels: kustomize?.commonLabels ?? {},
      commonAnnotations: kustomize?.commonAnnotations ?? {},
      patches: kustomize?.patches ?? [],
      images: kustomize?.images ?? [],
      replicas: kustomize?.replicas ?? [],
      components: kustomize?.components ?? [],
    },
    {
      patchesAt: [...segments, 'kustomize', 'patches'],
      imagesAt: [...segments, 'kustomize', 'images'],
      imageFormat: 'argocd-string',
      replicasAt: [...segments, 'kustomize', 'replicas'],
      transformAt: {
        namespace: 'kustomize.namespace',
        'namespace@pointer': `${pointer}/namespace`,
        labels: 'kustomize.commonLabels',
        'labels@pointer': `${pointer}/commonLabels`,
        annotations: 'kustomize.commonAnnotations',
        'annotations@pointer': `${pointer}/commonAnnotations`,
        'name-affix': 'kustomize.namePrefix/nameSuffix',
      },
    },
    transforms.destination.namespace ?? inputs.defaultNamespace,
    { helm: argoKustomizeHelm(declared, inputs), managedByLabel: argoManagedByLabel(declared, inputs) },
  );
}

/** The source's path rendered as the repo server does: a Helm chart, a kustomization or a directory. */
function pathExists(files: ReadonlyMap<string, string>, path: string): boolean {
  if (path === '' || path === '.' || files.has(path)) return true;
  const prefix = `${path.replace(/\/+$/, '')}/`;
  for (const file of files.keys()) if (file.startsWith(prefix)) return true;
  return false;
}

function renderArgoPath(
  declared: DeclaredSource,
  inputs: RenderSourceInputs,
  transforms: ArgoTransforms,
): SourceRender {
  const path = declared.source.path;
  if (path === undefined) return renderArgoHelm(declared, inputs);
  if (!pathExists(inputs.files, path)) {
    // The repo server refuses it (util/app/path Path: "app path does not exist"): a ComparisonError, nothing synced.
    const file = declared.desired?.source.file ?? path;
    const message = `Application ${sourceName(declared.source.id)}: app path ${path} does not exist`;
    return {
      objects: [],
      errors: [{ file, field: 'spec.source.path', message }],
      skipped: [],
      filesRead: [],
      notes: [],
    };
  }
  if (findKustomizationFile(inputs.files, path)) return renderArgoKustomize(declared, inputs, transforms);
  if (inputs.files.has(path ? `${path}/Chart.yaml` : 'Chart.yaml')) return renderArgoHelm(declared, inputs);
  return renderDirectory(declared, inputs, transforms);
}

/**
 * argocd-cm `kustomize.buildOptions` are flags of Argo CD's `kustomize build` (util/kustomize): with
 * `--enable-managedby-label` every object gets kustomize's managed-by label.
 */
function argoManagedByLabel(declared: DeclaredSource, inputs: RenderSourceInputs): boolean {
  const flags = argoSettingsOf(declared.source, inputs).kustomizeBuildOptions?.split(/\s+/) ?? [];
  return flags.some((flag) => flag === '--enable-managedby-label' || flag === '--enable-managedby-label=true');
}

/**
 * Argo CD's repo server passes --enable-helm when argocd-cm `kustomize.buildOptions` holds it, and
 * then the cluster's version and API versions (--helm-kube-version, --helm-api-versions).
 */
function argoKustomizeHelm(declared: DeclaredSource, inputs: RenderSourceInputs): KustomizeHelm {
  const settings = argoSettingsOf(declared.source, inputs);
  if (settings.from === 'defaults')
    return {
      disabled: 'argocd-cm is not in the snapshot, so whether kustomize.buildOptions holds --enable-helm is unknown',
    };
  if (!settings.kustomizeBuildOptions?.includes('--enable-helm'))
    return {
      disabled: 'argocd-cm kustomize.buildOptions does not hold --enable-helm, so Argo CD does not inflate helmCharts',
    };
  return {
    ...(inputs.charts ? { charts: inputs.charts } : {}),
    ...(inputs.capabilities?.kubeVersion ? { kubeVersion: argoKubeVersion(inputs.capabilities.kubeVersion)! } : {}),
    apiVersions: inputs.capabilities?.apiVersions ?? [],
  };
}

/** One entry of `spec.sources` as a single source: its path, origin and options, the Application's others. */
function entrySource(declared: DeclaredSource, transforms: ArgoTransforms, entry: ArgoSourceEntry): DeclaredSource {
  const { helm: _helm, directory: _directory, kustomize: _kustomize, sources: _sources, ...shared } = transforms;
  const own: ArgoTransforms = {
    ...shared,
    sourceIndex: entry.index,
    ...(entry.helm ? { helm: entry.helm } : {}),
    ...(entry.directory ? { directory: entry.directory } : {}),
    ...(entry.kustomize ? { kustomize: entry.kustomize } : {}),
    sources: transforms.sources ?? [],
  };
  const { path: _path, ...rest } = declared.source;
  const path = entry.path !== undefined ? { path: entry.path } : {};
  return { ...declared, source: { ...rest, ...path, origin: entry.origin, transforms: own } };
}

/** An entry of another Git repository: its objects are unknown; live ones in its namespace are set aside. */
function otherRepositoryEntry(declared: DeclaredSource, entry: ArgoSourceEntry, namespace: string): SourceRender {
  const name = sourceName(declared.source.id);
  const message =
    `Application ${name}: spec.sources[${entry.index}] applies ${entry.origin.repoURL}, another repository: ` +
    'its objects are not checked here';
  const file = declared.desired?.source.file ?? declared.source.declaredIn?.file ?? '';
  return sourceNotRendered(name, message, { file, field: `spec.sources[${entry.index}]`, reason: message, namespace });
}

/**
 * Every entry of `spec.sources`, each rendered as a source of its own and joined, as the controller joins
 * the repo-server's manifests (controller/state.go GetRepoObjs); a `ref`-only entry gives nothing.
 */
function renderArgoSources(declared: DeclaredSource, inputs: RenderSourceInputs, transforms: ArgoTransforms) {
  const joined = { objects: [], errors: [], skipped: [], filesRead: [], notes: [], notRendered: [] } as Required<
    Omit<SourceRender, 'stopped'>
  >;
  const namespace = transforms.destination.namespace ?? inputs.defaultNamespace;
  for (const entry of transforms.sources ?? []) {
    if (entry.refOnly) continue;
    const one = entrySource(declared, transforms, entry);
    const ours = entry.origin.chart !== undefined || (inputs.isThisRepository?.(entry.origin.repoURL) ?? true);
    const rendered = ours
      ? renderArgoPath(one, inputs, one.source.transforms as ArgoTransforms)
      : otherRepositoryEntry(declared, entry, namespace);
    if (rendered.stopped) return { ...joined, objects: [], stopped: true as const };
    joined.objects.push(...rendered.objects);
    joined.errors.push(...rendered.errors);
    joined.skipped.push(...rendered.skipped);
    joined.filesRead.push(...rendered.filesRead);
    joined.notes.push(...rendered.notes);
    joined.notRendered.push(...(rendered.notRendered ?? []));
  }
  return joined;
}

export function renderArgoSource(given: DeclaredSource, inputs: RenderSourceInputs): SourceRender {
  const settings = argoSettingsOf(given.source, inputs);
  const overridden = withSourceFiles(given, inputs.files, settings.controlPlaneNamespace);
  const declared = overridden.declared;
  const { source } = declared;
  const transforms = source.transforms as ArgoTransforms;
  const rendered = transforms.sources
    ? renderArgoSources(declared, inputs, transforms)
    : renderArgoPath(declared, inputs, transforms);
  rendered.filesRead.push(...overridden.filesRead);
  rendered.errors.push(...overridden.problems);
  const file = declared.desired?.source.file;
  const stamp = {
    origin: {
      type: 'source-transform' as const,
      source: `Application ${sourceName(source.id)}`,
      transform: 'stamp',
      ...(file ? { file } : {}),
    },
  };
  for (const desired of rendered.objects) {
    stampDesired(desired, source.id, stamp, settings, transforms.destination.namespace);
  }
  return rendered;
}
