// kustomize's `images`: rewrites the name, tag or digest of matching container images in every
// containers / initContainers / ephemeralContainers list of an object, at any depth (so custom
// resources with pod templates are covered, as kustomize's legacy image filter does).
import type { FieldSource } from '../model/index.js';
import type { BuildResource } from './resource.js';
import type { TrackedNode } from './tracked.js';

export interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
  source: FieldSource;
}

const CONTAINER_LISTS: ReadonlySet<string> = new Set(['containers', 'initContainers', 'ephemeralContainers']);

export function applyImages(resources: BuildResource[], rules: readonly ImageRule[]): void {
  if (rules.length === 0) return;
  for (const resource of resources) visit(resource.root, rules);
}

function visit(node: TrackedNode, rules: readonly ImageRule[]): void {
  if (node.kind === 'list') for (const item of node.items) visit(item, rules);
  if (node.kind !== 'map') return;
  for (const [key, child] of node.entries) {
    if (CONTAINER_LISTS.has(key) && child.kind === 'list') {
      for (const container of child.items) {
        if (container.kind !== 'map') continue;
        const image = container.entries.get('image');
        if (image?.kind !== 'scalar' || typeof image.value !== 'string') continue;
        const rule = rules.find((r) => splitImage(image.value as string).name === r.name);
        if (rule)
          container.entries.set('image', {
            kind: 'scalar',
            value: rewriteImage(image.value, rule),
            source: rule.source,
          });
      }
    }
    visit(child, rules);
  }
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
