// A chart render as the core asks for it and as the Helm edge (src/helm) answers: the core never runs
// Helm; it builds a request (the chart's files or its repository coordinates, the values in the
// controller's order, the release's name and namespace, the cluster's Kubernetes and API versions)
// and reads the manifest an injected renderer returns. Without a renderer (no Helm binary), charts
// are reported, not rendered.

/** Where the chart comes from. */
export type ChartLocation =
  /** A chart directory of this repository, as files relative to the chart's root (`Chart.yaml`, `templates/…`). */
  | { type: 'files'; files: ReadonlyMap<string, string> }
  /** A chart of a Helm repository (https or `oci://`), by name and version; `digest` when the source pins one. */
  | { type: 'repository'; url: string; name: string; version: string; digest?: string };

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
}

/**
 * What Helm printed (hooks left out), or why the chart was not rendered. `memo`: where the core keeps
 * what it read of this output (parsed objects), so an output the edge serves again from its cache is
 * not parsed again; it lives and dies with the output.
 */
export type ChartOutput = { ok: true; manifest: string; memo?: Map<string, unknown> } | { ok: false; reason: string };

/** Renders one chart; supplied by an edge that runs Helm (bounded, sandboxed, cached). */
export type ChartRenderer = (request: ChartRequest) => ChartOutput;
