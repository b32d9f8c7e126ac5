// Where a desired object and each of its fields came from. codify edits these places and
// check-run annotations point at them, so every desired object carries its source map.
import type { KubeObject } from './object.js';
import type { ResourceKey } from './key.js';
import type { ChartValuePlaces } from './chart.js';

/** A place in a file: byte offsets [start, end) of a YAML node and its 1-based line and column. */
export interface SourceLocation {
  file: string;
  /** Index of the YAML document in the file (0-based, empty documents counted). */
  document: number;
  /** Byte-offset range of the value node in the file text: [start, valueEnd). */
  range: [number, number];
  line: number;
  column: number;
}

/** The offset at which each line of a text starts (the first line at 0). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/**
 * The location of the range [start, end) of a file whose lines start at `lineStarts` (1-based line
 * and column). A binary search with no allocation but the result: every node of every file gets one.
 */
export function locationAt(
  lineStarts: readonly number[],
  file: string,
  document: number,
  start: number,
  end: number,
): SourceLocation {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= start) low = mid;
    else high = mid - 1;
  }
  return { file, document, range: [start, end], line: low + 1, column: start - lineStarts[low]! + 1 };
}

/**
 * How a field reached the rendered object when it did not come straight from the resource file.
 * `kustomization` is the kustomization file path; `index` the entry in that field's list.
 */
export type FieldOrigin =
  | { type: 'resource' }
  | { type: 'patch'; kustomization: string; file?: string; index: number; patchType: 'strategic-merge' | 'json6902' }
  | {
      type: 'images';
      kustomization: string;
      index: number;
      part: 'newName' | 'newTag' | 'digest';
      /**
       * For a source's own override: the document of `kustomization` and the path of its list
       * (`['spec', 'images']` of a Flux Kustomization; `['spec', 'source', 'kustomize', 'images']` of an Argo
       * CD Application, whose entries are `name=newName:tag` strings). Absent: a kustomization's `images`.
       */
      document?: number;
      list?: string[];
      format?: 'object' | 'argocd-string';
    }
  /** `document`/`list`: an Argo CD Application's `spec.source.kustomize.replicas` (absent: a kustomization's). */
  | { type: 'replicas'; kustomization: string; index: number; document?: number; list?: string[] }
  | { type: 'namespace'; kustomization: string }
  | { type: 'name-affix'; kustomization: string }
  | { type: 'labels'; kustomization: string }
  | { type: 'annotations'; kustomization: string }
  | { type: 'generator'; kustomization: string; index: number; generator: 'configMapGenerator' | 'secretGenerator' }
  /**
   * Set by a GitOps source at apply time rather than by a file of the render: a stamp, Flux
   * `commonMetadata` or `postBuild` substitution, Argo CD `destination.namespace`. `source` names it for
   * people (`Kustomization flux-system/apps`); `file` is where it is declared, when in the repository.
   */
  | {
      type: 'source-transform';
      source: string;
      transform: string;
      file?: string;
      /**
       * Post-build substitution: the field's text in the render and the variables it reads, with where each
       * is set; `at`: the inline `substitute` value to edit, when the field is that one variable alone.
       */
      text?: string;
      variables?: { name: string; from: string; at?: SourceLocation }[];
      /** A chart's output: where the chart's values are set, so codify can write a hand change into the value. */
      values?: ChartValuePlaces;
    }
  /**
   * A value copied by `replacements` (or substituted for a `$(VAR)` of `vars`): `from` is where the
   * copied value is written when it is one plain scalar, which codify may edit; absent otherwise.
   */
  | { type: 'replacement'; kustomization: string; index: number; from?: SourceLocation }
  | { type: 'var'; kustomization: string; name: string; from?: SourceLocation };

export interface FieldSource {
  /** Where the value is written (the resource file, the patch, the kustomization entry). */
  location?: SourceLocation;
  origin: FieldOrigin;
}

export interface SourceMap {
  /** The file and document the object was read from. */
  file: string;
  document: number;
  /** Location of the whole document's root mapping. */
  location: SourceLocation;
  /**
   * Kustomization files the object passed through, innermost first (the one that listed the file,
   * then the one that listed that directory, … up to the root). Empty for plain manifests.
   */
  kustomizations: string[];
  /** Name and namespace as written in the source file, before namePrefix/nameSuffix/namespace. */
  sourceName: string;
  sourceNamespace?: string;
  /**
   * Field sources keyed by JSON pointer into the rendered object (list items by index in the
   * rendered object). Every scalar and collection node written in a file has an entry; fields set by
   * a transformer have the transformer's origin.
   */
  fields: Record<string, FieldSource>;
  /**
   * Fields whose value comes from a Secret (a Flux substitution): pointer → what is shown instead
   * (`‹from Secret flux-system/cluster-secret-vars›`). The live object is masked at the same places.
   */
  secretFields?: Record<string, string>;
  /**
   * The document is SOPS-encrypted in Git: its `sops.mac` covers every value of the file, encrypted or
   * not (unless `mac_only_encrypted`), so codify never edits it — `sops --decrypt` would fail (MAC mismatch).
   */
  sopsEncrypted?: true;
}

export interface DesiredObject {
  key: ResourceKey;
  object: KubeObject;
  source: SourceMap;
}

/** A problem in the repository's files, with a place the user can go to. */
export interface SourceProblem {
  file: string;
  line?: number;
  column?: number;
  /** The offending field, e.g. `helmCharts` or `resources[2]`. */
  field?: string;
  message: string;
}

export interface SkippedDocument {
  file: string;
  document: number;
  reason: string;
  /**
   * `generate-name`: an object with generateName and no name, created anew at each apply: not compared.
   * `declared-again`: plain manifests declare the object again later; the last declaration is compared.
   */
  code?: 'generate-name' | 'declared-again';
  /**
   * For `generate-name`: what it makes (`namespace` when the manifest names one or the source gives it
   * one) and the manifest's annotations (a hook's, when it is one: its objects are hooks).
   */
  generated?: { group: string; kind: string; namespace?: string; prefix: string; annotations?: Record<string, string> };
  /** For `generate-name`: the live objects made from it (`Job/default/db-migrate-x7k2p`). */
  made?: string[];
  /**
   * For `declared-again`: the object, this declaration's place and the last one's (`file:line`, relative
   * to the directory rendered), so a message can name both from one root.
   */
  declaredAgain?: DeclaredAgain;
}

export interface DeclaredAgain {
  object: string;
  here: string;
  last: string;
}

/**
 * Something the renderer cannot render faithfully (a Helm chart, a remote resource, a plugin that runs
 * a program): what it would have produced is unknown, so live objects it may account for must be
 * neither reported as extra nor pruned. `namespace`: the namespace a kustomization on its way sets
 * (its objects land there); absent when any namespace may hold them.
 */
export interface NotRenderedSource {
  file: string;
  line?: number;
  field?: string;
  reason: string;
  namespace?: string;
  /** The source (`Kustomization/flux-system/apps`) this part belongs to: what its inventory or stamps name is its. */
  source?: string;
}

export interface RenderResult {
  objects: DesiredObject[];
  /** Parts of the tree that were not rendered; the rest was. Absent or empty: everything rendered. */
  notRendered?: NotRenderedSource[];
  skipped: SkippedDocument[];
  errors: SourceProblem[];
  /** Every file the build read (kustomization files, resources, patches, generator sources). */
  filesRead: string[];
  /** Set when the render ran out of its budget: `objects` is then empty, not the cluster's content. */
  stopped?: true;
}

export function formatProblem(problem: SourceProblem): string {
  const where = problem.line ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}: ${problem.field ? problem.field + ': ' : ''}${problem.message}`;
}
