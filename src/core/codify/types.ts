// What codify takes and returns: data, so the App writes a commit and the CLI writes files or a
// diff from the same result.
import type { Config } from '../config/index.js';
import type {
  Cause,
  DesiredObject,
  DiffResult,
  FieldChange,
  KubeObject,
  PathSegment,
  RenderResult,
  ResourceKey,
  Risk,
} from '../model/index.js';
import type { SnapshotScope } from '../k8s/index.js';
import type { PathReader } from './new-file-place.js';

export interface CodifyInput {
  /** The repository's files, path (relative to the repository, `/` separators) → text. */
  files: ReadonlyMap<string, string>;
  /** The cluster path inside the repository (`''` for the repository root). */
  root: string;
  /** More directories codify may create files in: the paths the cluster's sources render. Default: none. */
  sourceRoots?: readonly string[];
  /**
   * namespace → the directory a source renders objects of that namespace from: a new resource of that
   * namespace is written there (`<dir>/<kind>-<name>.yaml`, listed in its kustomization when it has one),
   * so the source applies it. Default: none (`pullRequests.newResourcePath` under the cluster path).
   */
  newResourceHomes?: Readonly<Record<string, string>>;
  /**
   * What applies the repository's directories to the cluster and how each reads a directory: a new
   * manifest is written only where one of them reads it. Default: the cluster path, read as the render
   * reads it (its kustomization, or every manifest below it).
   */
  readers?: readonly PathReader[];
  result: DiffResult;
  live: KubeObject[];
  config: Config;
  cluster?: { name: string; namespaces?: string[] };
  /** Namespace for namespaced manifests that name none. Default: `default`. */
  defaultNamespace?: string;
}

/** replace: a value set in place; add: a missing key or item inserted; remove-field: a conflict resolved by dropping the field;
 *  new-file: a hand-made resource written as a manifest; patch: a change to a shared base written as an overlay patch. */
export type CodifyKind = 'replace' | 'add' | 'remove-field' | 'new-file' | 'patch';

export interface CodifiedChange {
  key: ResourceKey;
  change?: FieldChange;
  file: string;
  line?: number;
  kind: CodifyKind;
  /** Said to the reviewer next to it: why a new file is not where newResourcePath would put it. */
  note?: string;
  /** A change under a chart: the chart value written instead of the field. */
  chartValue?: ChartValueEdit;
}

/** The chart value a change under a chart was written into. */
export interface ChartValueEdit {
  /** The value's path in the chart's values (`['image', 'tag']`). */
  path: string[];
  /**
   * Where it is set, as the edited file names it: a values file's path, or the field that holds the
   * values (`spec.values`, `spec.source.helm.parameters[0].value`, `helmCharts[0].valuesInline`, `data.values.yaml`).
   */
  where: string;
  /** The object that field belongs to, when it is not the one that declares the chart (`ConfigMap shop/web-values`). */
  object?: string;
  /** What declares the chart (`HelmRelease shop/web`, `Application argocd/web`). */
  source: string;
  /**
   * The field of an object of the repository that holds the values and so changes with the edit (a
   * ConfigMap's `data` key, the declaring object's values): its own drift is the edit, not a side effect.
   */
  holder?: { key: ResourceKey; segments: PathSegment[] };
}

export interface ReportedChange {
  key: ResourceKey;
  change?: FieldChange;
  reason: string;
  /** Who made what is reported and when (from managedFields), and the cause: every report shows them. */
  manager?: string;
  time?: string;
  cause?: Cause;
  /** Set when it is held back as security-relevant drift: it needs a person's decision. */
  risk?: Risk[];
}

export type SelfCheck = { ok: true } | { ok: false; reason: string };

export interface CodifyResult {
  /** Path → new full text, new files included. Empty when the self-check failed. */
  edits: Map<string, string>;
  codified: CodifiedChange[];
  reported: ReportedChange[];
  check: SelfCheck;
}

/** The render and diff steps the self-check runs again on the edited files. */
export interface CodifyEngine {
  render(files: ReadonlyMap<string, string>, root: string, options: { defaultNamespace?: string }): RenderResult;
  diff(
    desired: DesiredObject[],
    live: KubeObject[],
    options: { config: Config; namespaces?: readonly string[]; scope: SnapshotScope },
  ): DiffResult;
}
