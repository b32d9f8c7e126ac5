// Fields Argo CD Image Updater writes: an Application annotated
// `argocd-image-updater.argoproj.io/image-list: [<alias>=]<image>[:<constraint>], …` has the images of
// that list kept at the newest version its update strategy allows, written back either into the
// Application's own parameters (`write-back-method: argocd`, the default: kustomize images or Helm
// parameters) or into Git (`write-back-method: git…`: the `.argocd-source-<app>.yaml` parameter file in
// the source path, or with `write-back-target: kustomization` the kustomization's `images`). A hand
// change to such a container image (`kubectl set image`, a rollback) is reported with the Application
// and the image list that own it, never codified: the updater sets its own version again.
import { summarize } from '../classify/summary.js';
import { registryOf } from '../k8s/image-reference.js';
import { keyId, type DiffResult, type FieldChange, type KubeObject, type ResourceDiff } from '../model/index.js';
import { sourceName } from '../sources/identity.js';
import type { SourceResult } from './source-worklist.js';

const PREFIX = 'argocd-image-updater.argoproj.io';
export const IMAGE_LIST = `${PREFIX}/image-list`;
const WRITE_BACK = `${PREFIX}/write-back-method`;
const WRITE_TARGET = `${PREFIX}/write-back-target`;

/** One Application whose images the updater writes: which objects, which image names, and how it writes back. */
export interface ImageUpdaterScope {
  application: string;
  keys: ReadonlySet<string>;
  /** Normalized image names (registry/repository, no tag or digest). */
  images: ReadonlySet<string>;
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

/** The image names of an `image-list` annotation (`alias=image:constraint` entries, comma-separated). */
export function imageListNames(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => imageName(entry.includes('=') ? entry.slice(entry.indexOf('=') + 1) : entry));
}

function writesTo(annotations: Record<string, string>, app: string, path: string | undefined): string {
  const method = annotations[WRITE_BACK]?.trim() ?? 'argocd';
  if (!method.startsWith('git')) return `the parameters of Application ${app} (write-back-method: argocd)`;
  const target = annotations[WRITE_TARGET]?.trim();
  if (target?.startsWith('kustomization'))
    return `the kustomization's \`images\` in Git (write-back-target: ${target})`;
  const name = app.slice(app.indexOf('/') + 1);
  return `\`${path ? `${path}/` : ''}.argocd-source-${name}.yaml\` in Git (write-back-method: git)`;
}

/** The Applications of the render that the updater manages, from their annotations (head first, then live). */
export function imageUpdaterScopes(
  sources: readonly SourceResult[],
  objects: readonly KubeObject[],
): ImageUpdaterScope[] {
  return sources.flatMap((result) => {
    const { namespace, name } = result.source.id;
    if (result.source.id.controller !== 'argocd' || result.scope !== 'rendered') return [];
    const app = objects.find(
      (o) => o.kind === 'Application' && o.metadata.name === name && (o.metadata.namespace ?? '') === namespace,
    );
    const annotations = app?.metadata.annotations ?? {};
    const list = annotations[IMAGE_LIST];
    if (!list) return [];
    const application = sourceName(result.source.id);
    return [
      {
        application,
        keys: new Set(result.objects.map(keyId)),
        images: new Set(imageListNames(list)),
        writesTo: writesTo(annotations, application, result.source.path),
      },
    ];
  });
}

const IMAGE_PATH = /\/(?:initContainers|containers|ephemeralContainers)\/\d+\/image$/;

/** The scope whose image list names the image of this change, or undefined. */
export function imageUpdaterOf(
  scopes: readonly ImageUpdaterScope[],
  id: string,
  change: Pick<FieldChange, 'path' | 'desired' | 'live'>,
): ImageUpdaterScope | undefined {
  if (!IMAGE_PATH.test(change.path)) return undefined;
  const images = [change.desired, change.live].filter((v): v is string => typeof v === 'string').map(imageName);
  return scopes.find((scope) => scope.keys.has(id) && images.some((image) => scope.images.has(image)));
}

export function imageUpdaterReason(scope: ImageUpdaterScope): string {
  return (
    `written by Argo CD Image Updater (Application ${scope.application}, annotation ${IMAGE_LIST}), which ` +
    `writes it to ${scope.writesTo}: never codified — the updater sets the newest version its strategy ` +
    'allows again; to hold a version, change the image list’s constraint or remove the annotation'
  );
}

function setAside(resource: ResourceDiff, scopes: readonly ImageUpdaterScope[]): ResourceDiff {
  if (resource.changes.length === 0) return resource;
  const id = keyId(resource.key);
  const moved: FieldChange[] = [];
  const changes = resource.changes.filter((change) => {
    const scope = imageUpdaterOf(scopes, id, change);
    if (scope) moved.push({ ...change, reported: { code: 'image-automation', reason: imageUpdaterReason(scope) } });
    return !scope;
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
