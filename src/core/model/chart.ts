// A chart render as the core asks for it and as the Helm edge (src/helm) answers: the core never runs
// Helm; it builds a request (the chart's files or its repository coordinates, the values in the
// controller's order, the release's name and namespace, the cluster's Kubernetes and API versions)
// and reads the manifest an injected renderer returns. Without a renderer (no Helm binary), charts
// are reported, not rendered.
import type { PathSegment } from './drift.js';
import { toPointer } from './pointer.js';
import type { ResourceKey } from './key.js';
import { whyNotRead } from './file-text.js';

/** Where the chart comes from. */
export type ChartLocation =
  /** A chart directory of this repository, as files relative to the chart's root (`Chart.yaml`, `templates/…`). */
  | { type: 'files'; files: ReadonlyMap<string, string> }
  /** A chart of a Helm repository (https or `oci://`), by name and version; `digest` when the source pins one. */
  | {
      type: 'repository';
      url: string;
      name: string;
      version: string;
      digest?: string;
      /** An OCI manifest digest the chart is pulled at (a Flux OCIRepository's `ref.digest`); `version` is then empty. */
      manifest?: string;
      /**
       * Files of the archive (paths relative to the chart's root) merged in order, later winning, into the
       * values that replace its values.yaml (a Flux HelmChart's `valuesFiles`); `ignoreMissing`: a file the
       * archive lacks is skipped instead of failing the chart (`ignoreMissingValuesFiles`).
       */
      valuesFiles?: { paths: string[]; ignoreMissing: boolean };
    };

/**
 * Why a chart of the repository cannot be handed to Helm: the first of its files the reader left unread
 * (over a file's or the job's byte limit), named by its path in the repository (`dir`: the chart's
 * directory). Helm reads every file of a chart directory (a packaged subchart, `.Files.Get`), so a chart
 * with a file missing would render something else than the controller does.
 */
export function chartFileNotRead(chart: ChartLocation, dir: string): string | undefined {
  if (chart.type !== 'files') return undefined;
  for (const [path, text] of chart.files) {
    const why = whyNotRead(text);
    if (why !== undefined) return `file ${dir && dir !== '.' ? `${dir}/` : ''}${path} was not read: ${why}`;
  }
  return undefined;
}

/** One `--set` / `--set-string` / `--set-file` argument, as the controller builds it. */
export interface ChartSetValue {
  /** Helm's `--set` path (`image.tag`, `a\.b`, `list[0]`), escaped as the controller escapes it. */
  name: string;
  value: string;
  /** `--set-string` (Argo CD `forceString`); `--set-file` for `file` (value: the file's text). */
  kind: 'set' | 'string' | 'file';
}

export interface ChartRequest {
  /** For messages: `apps/podinfo/chart` or `oci://ghcr.io/stefanprodan/charts/podinfo:6.7.1`. */
  where: string;
  chart: ChartLocation;
  releaseName: string;
  /** The release namespace (`--namespace`). */
  namespace: string;
  /** Values files' texts in Helm's order (later wins): `--values` each. */
  valueFiles: string[];
  /** Then `--set`-style arguments, in order (later wins). */
  set: ChartSetValue[];
  /** `--kube-version`; absent: Helm's own default. */
  kubeVersion?: string;
  /** `--api-versions`, from the cluster's discovery (`apps/v1`, `monitoring.coreos.com/v1/ServiceMonitor`). */
  apiVersions: string[];
  /** `--include-crds`: the chart's crds/ directory is part of the output. */
  includeCrds: boolean;
  /** `--skip-tests`. */
  skipTests?: boolean;
  /** `--is-upgrade`: templates see `.Release.IsUpgrade` true and `.Release.IsInstall` false. */
  isUpgrade?: boolean;
}

/**
 * What Helm printed (hooks left out), or why the chart was not rendered. `memo`: where the core keeps
 * what it read of this output (parsed objects), so an output the edge serves again from its cache is
 * not parsed again; it lives and dies with the output. `defaults`: a repository chart's own default
 * values, as the edge read them from its archive (the core has no file of such a chart).
 */
export type ChartOutput =
  | { ok: true; manifest: string; memo?: Map<string, unknown>; defaults?: Record<string, unknown> }
  | { ok: false; reason: string };

/** Renders one chart; supplied by an edge that runs Helm (bounded, sandboxed, cached). */
export type ChartRenderer = (request: ChartRequest) => ChartOutput;

/**
 * Where a place of a chart's values is written: a YAML map in a file (`path` leads to it in that
 * document; `[]` for a whole values file), or a field of the object that declares the chart (a
 * HelmRelease's `spec.values`, an Argo CD Application's `valuesObject`), written wherever that object's
 * own source map says. `parameter`: one string scalar that is the whole value (an Argo CD `parameters`
 * entry's `value`, a ConfigMap key Flux reads with `targetPath`), the one thing to edit.
 */
export type ChartValuesWhere =
  | {
      type: 'file';
      file: string;
      document: number;
      path: PathSegment[];
      /** The object field the file's text becomes (a configMapGenerator's ConfigMap key): it changes with the file. */
      holds?: { key: ResourceKey; field: PathSegment[] };
    }
  | { type: 'object'; key: ResourceKey; path: PathSegment[]; parameter?: true }
  /**
   * YAML text held by a string field of an object of the repository (an Argo CD `helm.values`, a
   * ConfigMap's `values.yaml` key): `field` leads to the string, `path` into the YAML it holds. Edited
   * inside the literal block scalar where that object's source map places the field.
   */
  | { type: 'embedded'; key: ResourceKey; field: PathSegment[]; path: PathSegment[] }
  /**
   * The value text of a `KEY=VALUE` line a configMapGenerator reads (a `literals` entry, an `envs` file's
   * line): the characters `range` covers in `file` are the value, replaced whole; `holds` changes with it.
   * `literal`: `range` is a `literals` entry's whole YAML scalar (plain or quoted), whose string is
   * `before` + the value + `after` (`before` ends with `KEY=`, and kustomize's own quotes, if any, are
   * in `before` and `after`); it is written again in its own quoting where the new value allows.
   */
  | {
      type: 'text';
      file: string;
      range: [number, number];
      holds: { key: ResourceKey; field: PathSegment[] };
      literal?: { before: string; after: string };
    };

/** One place a chart's values are set, as the controller reads it: the values it sets, and where, when codify can edit it. */
export interface ChartValuesLayer {
  /** For people: `spec.values of HelmRelease shop/webapp`, `valuesFrom ConfigMap shop/webapp-values`. */
  label: string;
  values: Record<string, unknown>;
  at?: ChartValuesWhere;
}

/**
 * Where a chart's values come from, lowest precedence first (the chart's own defaults, when known,
 * first), and where a value only the chart's defaults set is added (`addTo`: a HelmRelease's
 * `spec.values`, an Argo CD `valuesObject`, a kustomize `valuesInline`).
 */
export interface ChartValuePlaces {
  layers: ChartValuesLayer[];
  /** How many of the first layers are the chart's own defaults (never edited). */
  defaults: number;
  addTo?: { label: string; at: ChartValuesWhere };
  /**
   * A repository chart whose own defaults are the lowest layer: they are read from its archive when it
   * renders (ChartOutput `defaults`), so `layers` holds none yet. Absent when the defaults do not count
   * (Flux `valuesFiles` replace the chart's values.yaml).
   */
  archiveDefaults?: true;
}

/** The pointer of a place's path in the object (a list item by its index; a keyed item by its key's text). */
export function placePointer(segments: readonly PathSegment[]): string {
  return toPointer(segments.map((s) => (typeof s === 'string' ? s : 'index' in s ? s.index : JSON.stringify(s.key))));
}
