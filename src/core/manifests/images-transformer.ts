// kustomize's `images`: rewrites the name, tag or digest of matching container images in every
// containers / initContainers / ephemeralContainers list of an object, at any depth (so custom
// resources with pod templates are covered, as kustomize's legacy image filter does), and at the
// `images` field specs of the transformer configuration.
import type { FieldSource } from '../model/index.js';
import { kindOf, originalId, type BuildResource } from './resource.js';
import { fieldsAt, gvkSelected, pathSegments, type PathSpec } from './transformer-config.js';
import type { TrackedMap, TrackedNode } from './tracked.js';

export interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
  source: FieldSource;
}

const CONTAINER_LISTS: ReadonlySet<string> = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/**
 * Each `images` entry in turn, as kustomize runs one ImageTagTransformer per entry: first every
 * container list at any depth (its legacy filter), then the `images` field specs (the defaults,
 * image volumes among them, and what `configurations` add), CustomResourceDefinitions left alone.
 */
export function applyImages(
  resources: BuildResource[],
  rules: readonly ImageRule[],
  specs: readonly PathSpec[] = [],
): void {
  for (const rule of rules) {
    for (const resource of resources) visit(resource.root, rule);
    for (const resource of resources)
      if (kindOf(resource) !== 'CustomResourceDefinition') atSpecs(resource, rule, specs);
  }
}

function visit(node: TrackedNode, rule: ImageRule): void {
  if (node.kind === 'list') for (const item of node.items) visit(item, rule);
  if (node.kind !== 'map') return;
  for (const [key, child] of node.entries) {
    if (CONTAINER_LISTS.has(key) && child.kind === 'list')
      for (const container of child.items) if (container.kind === 'map') rewriteAt(container, 'image', rule);
    visit(child, rule);
  }
}

function atSpecs(resource: BuildResource, rule: ImageRule, specs: readonly PathSpec[]): void {
  const id = originalId(resource);
  for (const spec of specs) {
    if (!gvkSelected(id, spec)) continue;
    for (const field of fieldsAt(resource.root, pathSegments(spec.path))) rewriteAt(field.parent, field.key, rule);
  }
}

/** Rewrites the image at `map[key]` when its name is the rule's. */
function rewriteAt(map: TrackedMap, key: string, rule: ImageRule): void {
  const image = map.entries.get(key);
  if (image?.kind !== 'scalar' || typeof image.value !== 'string') return;
  if (splitImage(image.value).name !== rule.name) return;
  map.entries.set(key, { kind: 'scalar', value: rewriteImage(image.value, rule), source: rule.source });
}

/** `registry:5000/app:1.2@sha256:…` → name, tag, digest (a ':' before the last '/' is a port). */
export function splitImage(image: string): { name: string; tag: string; digest: string } {
  let rest = image;
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) return { name: rest.slice(0, colon), tag: rest.slice(colon + 1), digest };
  return { name: rest, tag: '', digest };
}

export function rewriteImage(image: string, rule: Omit<ImageRule, 'source'>): string {
  let { name, tag, digest } = splitImage(image);
  if (rule.newName) name = rule.newName;
  // A new tag or digest replaces both the old tag and the old digest.
  if (rule.newTag && rule.digest) [tag, digest] = [rule.newTag, rule.digest];
  else if (rule.newTag) [tag, digest] = [rule.newTag, ''];
  else if (rule.digest) [tag, digest] = ['', rule.digest];
  return `${name}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
}
