// Fields Argo CD Image Updater writes: an Application annotated
// `argocd-image-updater.argoproj.io/image-list: [<alias>=]<image>[:<constraint>], …` has the images of
// that list kept at the newest version its update strategy allows, written back either into the
// Application's own parameters (`write-back-method: argocd`, the default: kustomize images or Helm
// parameters) or into Git (`write-back-method: git…`: the `.argocd-source-<app>.yaml` parameter file in
// the source path, or with `write-back-target: kustomization` the kustomization's `images`). A hand
// change to such a container image (`kubectl set image`, a rollback) is reported with the Application
// and the image list that own it, never codified: the updater sets its own version again.
// Per image (argocd-image-updater pkg/common/constants.go, pkg/argocd/update.go): an entry
// `<alias>=<image>` of the list has its own annotations `<alias>.helm.image-name`, `<alias>.helm.image-tag`
// (or `<alias>.helm.image-spec`, which replaces both), `<alias>.kustomize.image-name` (the image name in the
// manifests that the kustomize override replaces), `<alias>.allow-tags` and `<alias>.update-strategy`
// (`semver` when unset). An entry without an alias writes the Helm parameters `image.name` and `image.tag`
// (getHelmParamNamesFromAnnotation). Those Helm parameters and that kustomize image are written into the
// Application's source — its live `spec.source` under write-back-method `argocd`, the parameter file in Git
// under `git` (`.argocd-source-<app>.yaml`, `<namespace>_<name>` outside the control plane's namespace) —
// so they, and the container images they set, are the updater's.
import { summarize } from '../classify/summary.js';
import { registryOf } from '../k8s/image-reference.js';
import {
  fromPointer,
  getAt,
  isPlainObject,
  keyId,
  keyOf,
  type DiffResult,
  type FieldChange,
  type KubeObject,
  type ResourceDiff,
} from '../model/index.js';
import { argoInstanceFor, readArgoInstances } from '../sources/argocd-settings.js';
import { argoInstanceName, sourceName, type SourceRef } from '../sources/identity.js';
import type { SourceResult } from './source-worklist.js';

const PREFIX = 'argocd-image-updater.argoproj.io';
export const IMAGE_LIST = `${PREFIX}/image-list`;
const WRITE_BACK = `${PREFIX}/write-back-method`;
const WRITE_TARGET = `${PREFIX}/write-back-target`;

/** One image of an `image-list`: its alias (`''` when none) and the annotations that belong to it. */
export interface ImageUpdaterImage {
  alias: string;
  /** Normalized image name (registry/repository, no tag or digest). */
  image: string;
  /** The Helm parameters it writes (`image.name`/`image.tag` without an alias). */
  helmParameters: string[];
  /** `<alias>.kustomize.image-name`: the image name in the manifests the kustomize override replaces. */
  kustomizeImageName?: string;
  allowTags?: string;
  updateStrategy: string;
}

/** One Application whose images the updater writes: which objects, which images, and how it writes back. */
export interface ImageUpdaterScope {
  application: string;
  /** keyId of the Application: under write-back-method argocd the updater writes its live `spec.source`. */
  applicationKey: string;
  keys: ReadonlySet<string>;
  /** Every entry of the image list, with its alias's annotations. */
  entries: readonly ImageUpdaterImage[];
  /** Container image names (normalized) the entries set, each with its entry. */
  images: ReadonlyMap<string, ImageUpdaterImage>;
  /** Where the updater writes its versions, in words. */
  writesTo: string;
}

/** `nginx:1.2` → `docker.io/library/nginx`; `ghcr.io/a/b@sha256:…` → `ghcr.io/a/b`. */
export function imageName(reference: string): string {
  const name = reference.trim().split('@')[0]!;
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  const bare = colon > slash ? name.slice(0, colon) : name;
  const registry = registryOf(bare) ?? '';
  const path = bare.startsWith(`${registry}/`) ? bare.slice(registry.length + 1) : bare;
  return registry === 'docker.io' && !path.includes('/') ? `docker.io/library/${path}` : `${registry}/${path}`;
}

/** The entries of an `image-list` annotation: `[alias=]image[:constraint]`, comma-separated. */
function imageListEntries(value: string): Array<{ alias: string; image: string }> {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf('=');
      return { alias: at < 0 ? '' : entry.slice(0, at).trim(), image: imageName(at < 0 ? entry : entry.slice(at + 1)) };
    });
}

/** An entry with its alias's annotations read (getHelmParamNamesFromAnnotation, GetParameterKustomizeImageName). */
function withAliasOptions(entry: { alias: string; image: string }, annotations: Record<string, string>) {
  const option = (name: string): string | undefined =>
    entry.alias ? annotations[`${PREFIX}/${entry.alias}.${name}`]?.trim() || undefined : undefined;
  const spec = option('helm.image-spec');
  const helmParameters = !entry.alias
    ? ['image.name', 'image.tag']
    : spec
      ? [spec]
      : [option('helm.image-name'), option('helm.image-tag')].filter((name): name is string => !!name);
  const image: ImageUpdaterImage = {
    ...entry,
    helmParameters,
    updateStrategy: option('update-strategy') ?? 'semver',
  };
  const kustomizeImageName = option('kustomize.image-name');
  if (kustomizeImageName) image.kustomizeImageName = kustomizeImageName;
  const allowTags = option('allow-tags');
  if (allowTags) image.allowTags = allowTags;
  return image;
}

/** The `name` part of a kustomize image override (`name=newName:tag`, or a plain image). */
function overrideParts(override: string): { name: string; target: string } {
  const at = override.indexOf('=');
  return at < 0
    ? { name: imageName(override), target: imageName(override) }
    : {
        name: imageName(override.slice(0, at)),
        target: imageName(override.slice(at + 1)),
      };
}

/** The Application's `kustomize.images` (every source). */
function kustomizeImages(app: KubeObject | undefined): string[] {
  const spec = app?.spec;
  if (!isPlainObject(spec)) return [];
  const sources = [spec.source, ...(Array.isArray(spec.sources) ? spec.sources : [])];
  return sources.flatMap((source) => {
    const images = isPlainObject(source) && isPlainObject(source.kustomize) ? source.kustomize.images : undefined;
    return Array.isArray(images) ? images.filter((i): i is string => typeof i === 'string') : [];
  });
}

/** Container image names each entry sets: its own, its kustomize image name, and the override's target. */
function imagesOf(entries: readonly ImageUpdaterImage[], app: KubeObject | undefined) {
  const images = new Map<string, ImageUpdaterImage>();
  const overrides = kustomizeImages(app).map(overrideParts);
  for (const entry of entries) {
    images.set(entry.image, entry);
    if (!entry.kustomizeImageName) continue;
    const replaced = imageName(entry.kustomizeImageName);
    images.set(replaced, entry);
    for (const override of overrides) if (override.name === replaced) images.set(override.target, entry);
  }
  return images;
}

function writesTo(annotations: Record<string, string>, ref: SourceRef, fileApp: string, path: string | undefined) {
  const app = sourceName(ref);
  const method = annotations[WRITE_BACK]?.trim() ?? 'argocd';
  if (!method.startsWith('git')) return `the parameters of Application ${app} (write-back-method: argocd)`;
  const target = annotations[WRITE_TARGET]?.trim();
  if (target?.startsWith('kustomization'))
    return `the kustomization's \`images\` in Git (write-back-target: ${target})`;
  return `\`${path ? `${path}/` : ''}.argocd-source-${fileApp}.yaml\` in Git (write-back-method: git)`;
}

/** The Applications of the render that the updater manages, from their annotations (head first, then live). */
export function imageUpdaterScopes(
  sources: readonly SourceResult[],
  objects: readonly KubeObject[],
): ImageUpdaterScope[] {
  const instances = readArgoInstances(objects);
  return sources.flatMap((result) => {
    const { namespace, name } = result.source.id;
    if (result.source.id.controller !== 'argocd' || result.scope !== 'rendered') return [];
    const app = objects.find(
      (o) => o.kind === 'Application' && o.metadata.name === name && (o.metadata.namespace ?? '') === namespace,
    );
    const annotations = app?.metadata.annotations ?? {};
    const list = annotations[IMAGE_LIST];
    if (!list || !app) return [];
    const entries = imageListEntries(list).map((entry) => withAliasOptions(entry, annotations));
    const controlPlane = argoInstanceFor(instances, namespace)?.controlPlaneNamespace ?? 'argocd';
    const fileApp = argoInstanceName(result.source.id, controlPlane);
    return [
      {
        application: sourceName(result.source.id),
        applicationKey: keyId(keyOf(app)),
        keys: new Set(result.objects.map(keyId)),
        entries,
        images: imagesOf(entries, app),
        writesTo: writesTo(annotations, result.source.id, fileApp, result.source.path),
      },
    ];
  });
}

const IMAGE_PATH = /\/(?:initContainers|containers|ephemeralContainers)\/\d+\/image$/;
const SOURCE_LIST = /^\/spec\/(?:source|sources\/\d+)\/(helm\/parameters|kustomize\/images)(?:\/(\d+))?/;

/** A change the updater owns: which scope, and which entry of its image list. */
export interface ImageUpdaterOwner {
  scope: ImageUpdaterScope;
  entry: ImageUpdaterImage;
}

/** The entry that writes a Helm parameter or kustomize image of the Application's source, or undefined. */
function sourceEntry(scope: ImageUpdaterScope, item: unknown, list: string): ImageUpdaterImage | undefined {
  if (list === 'helm/parameters') {
    const name = isPlainObject(item) ? item.name : undefined;
    return scope.entries.find((entry) => typeof name === 'string' && entry.helmParameters.includes(name));
  }
  if (typeof item !== 'string') return undefined;
  const { name, target } = overrideParts(item);
  return scope.entries.find(
    (entry) =>
      entry.image === target ||
      entry.image === name ||
      (entry.kustomizeImageName !== undefined && imageName(entry.kustomizeImageName) === name),
  );
}

/** The owner of a change to the Application's own Helm parameters or kustomize images (every item it touches). */
function applicationSourceOwner(
  scope: ImageUpdaterScope,
  change: Pick<FieldChange, 'path' | 'desired' | 'live'>,
): ImageUpdaterOwner | undefined {
  const match = SOURCE_LIST.exec(change.path);
  if (!match) return undefined;
  const list = match[1]!;
  const items =
    match[2] !== undefined
      ? [changedItem(change, fromPointer(change.path).length - fromPointer(match[0]).length)]
      : [...listOf(change.live), ...listOf(change.desired)];
  const owners = items.map((item) => (item === undefined ? undefined : sourceEntry(scope, item, list)));
  const entry = owners[0];
  return entry && owners.every((owner) => owner === entry) ? { scope, entry } : undefined;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The list item a change is in: the change's value when it is the item, else unknown (its name is elsewhere). */
function changedItem(change: Pick<FieldChange, 'desired' | 'live'>, depth: number): unknown {
  return depth === 0 ? (change.live ?? change.desired) : undefined;
}

/** The updater scope and image entry that own this change, or undefined. */
export function imageUpdaterOwner(
  scopes: readonly ImageUpdaterScope[],
  id: string,
  change: Pick<FieldChange, 'path' | 'desired' | 'live'>,
  objects?: { live?: KubeObject; desired?: unknown },
): ImageUpdaterOwner | undefined {
  for (const scope of scopes) {
    if (id === scope.applicationKey) {
      const owner = applicationSourceOwner(scope, change) ?? itemOwner(scope, change, objects);
      if (owner) return owner;
    }
    if (!IMAGE_PATH.test(change.path) || !scope.keys.has(id)) continue;
    const images = [change.desired, change.live].filter((v): v is string => typeof v === 'string').map(imageName);
    const entry = images.map((image) => scope.images.get(image)).find(Boolean);
    if (entry) return { scope, entry };
  }
  return undefined;
}

/** A change inside one item (`…/helm/parameters/0/value`): the item read from the live or desired object. */
function itemOwner(
  scope: ImageUpdaterScope,
  change: Pick<FieldChange, 'path'>,
  objects: { live?: KubeObject; desired?: unknown } | undefined,
): ImageUpdaterOwner | undefined {
  const match = SOURCE_LIST.exec(change.path);
  if (!match || match[2] === undefined || !objects) return undefined;
  const at = fromPointer(match[0]);
  const item = getAt(objects.live, at) ?? getAt(objects.desired, at);
  const entry = item === undefined ? undefined : sourceEntry(scope, item, match[1]!);
  return entry ? { scope, entry } : undefined;
}

function entryWords(entry: ImageUpdaterImage): string {
  const alias = entry.alias ? `image alias \`${entry.alias}\` = ${entry.image}` : `image ${entry.image}`;
  const allow = entry.allowTags ? `, allow-tags ${entry.allowTags}` : '';
  return `${alias}, update-strategy ${entry.updateStrategy}${allow}`;
}

export function imageUpdaterReason(owner: ImageUpdaterScope | ImageUpdaterOwner): string {
  const { scope, entry } = 'scope' in owner ? owner : { scope: owner, entry: undefined };
  const which = entry ? `${entryWords(entry)}; ` : '';
  return (
    `written by Argo CD Image Updater (Application ${scope.application}, ${which}annotation ${IMAGE_LIST}), which ` +
    `writes it to ${scope.writesTo}: never codified — the updater sets the newest version its ` +
    `${entry ? `${entry.updateStrategy} ` : ''}strategy allows again; to hold a version, change the image ` +
    'list’s constraint or remove the annotation'
  );
}

function setAside(resource: ResourceDiff, scopes: readonly ImageUpdaterScope[]): ResourceDiff {
  if (resource.changes.length === 0) return resource;
  const id = keyId(resource.key);
  const moved: FieldChange[] = [];
  const objects = { live: resource.live, desired: resource.desired?.object };
  const changes = resource.changes.filter((change) => {
    const owner = imageUpdaterOwner(scopes, id, change, objects);
    if (owner) moved.push({ ...change, reported: { code: 'image-automation', reason: imageUpdaterReason(owner) } });
    return !owner;
  });
  if (moved.length === 0) return resource;
  const status = resource.status === 'modified' && changes.length === 0 ? 'in-sync' : resource.status;
  return { ...resource, changes, status, reported: [...(resource.reported ?? []), ...moved] };
}

/** The diff with every change to an image Argo CD Image Updater writes moved to the reported changes. */
export function setImageUpdaterAside(diff: DiffResult, scopes: readonly ImageUpdaterScope[]): DiffResult {
  if (scopes.length === 0) return diff;
  const resources = diff.resources.map((resource) => setAside(resource, scopes));
  if (resources.every((resource, i) => resource === diff.resources[i])) return diff;
  return { ...diff, resources, summary: summarize(resources) };
}
