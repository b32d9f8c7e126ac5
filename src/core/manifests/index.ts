// Files → desired objects with a source map: plain YAML/JSON manifests and the kustomize subset
// real repositories use. Pure: callers pass file texts in.
export { renderManifests, type RenderOptions } from './render.js';
export { declaredAgainReason, lastDeclarationWins } from './declared-again.js';
export { newParseCache, type ParseCache } from './parse-cache.js';
export {
  DEFAULT_MAX_RENDER_BYTES,
  DEFAULT_MAX_RENDER_DOCUMENTS,
  DEFAULT_MAX_RENDER_NODES,
  renderBudget,
  type RenderBudget,
  type RenderLimits,
} from './render-budget.js';
export { MAX_ALIAS_NODES } from '../yaml/expansion-size.js';
export type { UnfollowedKind } from './build-context.js';
export { isBuiltInClusterScoped } from '../k8s/index.js';
export { findKustomizationFile, KUSTOMIZATION_FILE_NAMES } from './paths.js';
export { kustomizeHash } from './name-hash.js';
export { templateFile, templatesOf } from './helm-output.js';
export { chartDefaultValues } from './chart-defaults.js';
export { type KustomizeHelm } from './helm-charts.js';
export { readEnvFile } from './env-file.js';
