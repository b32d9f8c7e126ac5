// What one render carries through its recursion: the files, what was read, what went wrong, and
// the kustomization directories being built (to catch cycles).
import type { NotRenderedSource, SkippedDocument, SourceProblem } from '../model/index.js';
import type { ParseCache } from './parse-cache.js';
import type { RenderBudget } from './render-budget.js';
import { defaultConfigCopy, type TransformerConfig } from './transformer-config.js';
import type { BoundVar } from './vars.js';
import type { CustomSchema } from './openapi-schema.js';
import type { KustomizeHelm } from './helm-charts.js';

export interface BuildContext {
  files: ReadonlyMap<string, string>;
  filesRead: Set<string>;
  problems: SourceProblem[];
  skipped: SkippedDocument[];
  /** Kustomization directories on the current path of the recursion. */
  stack: string[];
  /** Tree entries that are not followed (symbolic links, submodules): naming one says so. */
  unfollowed: ReadonlyMap<string, UnfollowedKind>;
  /** Parses kept across renders by the caller; none means every file is parsed afresh. */
  cache?: ParseCache;
  /** The render's budget, charged per document read. */
  meter?: RenderBudget;
  /** kustomize's default load restriction: files a kustomization reads must be in or below its directory. */
  rootOnly?: boolean;
  /** Order of the objects: kustomize's legacy kind order, or as built (fifo). The root's sortOptions win. */
  order?: 'fifo' | 'legacy';
  /** The root kustomization's directory, file and `buildMetadata` options (originAnnotations, …). */
  root?: { dir: string; file: string; buildMetadata: string[] };
  /** The first `openapi` schema the build met (the root's, when it has one). */
  schema?: CustomSchema;
  /**
   * Whether an `openapi` field already chose the schema (a custom one, or `version:`): kustomize keeps
   * the first choice, the root's before its bases' and components'.
   */
  schemaChosen?: boolean;
  /** Whether the build has read an object of a kind Kubernetes does not serve itself (see openapi-schema.ts). */
  customKindMet?: boolean;
  /** sortOptions.legacySortOptions: the kinds put first and last instead of kustomize's lists. */
  legacyKinds?: { first: string[]; last: string[] };
  /** What was not rendered (and why); the build goes on without it. */
  notRendered: NotRenderedSource[];
  /** The `namespace:` of each kustomization being built, outermost first ('' for none). */
  namespaces: string[];
  /** Vars bound so far (kustomize's var set), resolved at the end of the build. */
  vars: BoundVar[];
  /** Whether helmCharts are inflated (kustomize's --enable-helm) and by what; absent: they are not. */
  helm?: KustomizeHelm;
  /** Field specs of the built-in transformers, with what `configurations` files added. */
  config: TransformerConfig;
}

export type UnfollowedKind = 'symlink' | 'submodule';

export function newBuildContext(
  files: ReadonlyMap<string, string>,
  unfollowed: ReadonlyMap<string, UnfollowedKind> = new Map(),
): BuildContext {
  return {
    files,
    filesRead: new Set(),
    problems: [],
    skipped: [],
    stack: [],
    unfollowed,
    config: defaultConfigCopy(),
    vars: [],
    notRendered: [],
    namespaces: [],
  };
}
