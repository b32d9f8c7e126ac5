// Files → desired objects with a source map: plain YAML/JSON manifests and the kustomize subset
// real repositories use. Pure: callers pass file texts in.
export { renderManifests, type RenderOptions } from './render.js';
export { newParseCache, type ParseCache } from './parse-cache.js';
export type { UnfollowedKind } from './build-context.js';
export { isClusterScoped } from './cluster-scoped.js';
export { findKustomizationFile } from './paths.js';
export { kustomizeHash } from './name-hash.js';
