// One chart rendered for a declaration (a Flux HelmRelease, an Argo CD Application): the request
// handed to the injected renderer, its output read as desired objects, values that came from a Secret
// (a marked placeholder, since the snapshot holds no Secret value) taken out of every object and noted
// "from Secret, not checked" — never drift, never printed.
import type { KindScopes } from '../k8s/index.js';
import { isPlainObject, type DesiredObject, type FieldSource, type SourceProblem } from '../model/index.js';
import { chartObjects, type PostRenderer } from './output.js';
import type { ChartRenderer, ChartRequest } from './types.js';
import type { RenderBudget } from '../manifests/index.js';

/** The text a value from a Secret is rendered as; every field holding it is left out of desired. */
export const SECRET_PLACEHOLDER = 'driftback-placeholder-from-secret';

/** The cluster's versions as Helm's capabilities (`--kube-version`, `--api-versions`). */
export interface ChartCapabilities {
  kubeVersion?: string;
  apiVersions: string[];
}

export interface ChartRenderInput {
  request: ChartRequest;
  /** The chart's directory in the repository, or the chart's name. */
  where: string;
  origin: FieldSource;
  charts?: ChartRenderer;
  kindScopes?: KindScopes;
  budget?: RenderBudget;
  /** Namespace of namespaced objects that name none; default the release namespace. */
  defaultNamespace?: string;
  /** Flux `postRenderers[].kustomize`, applied to Helm's output in order. */
  postRenderers?: readonly PostRenderer[];
}

export type ChartRenderResult =
  | {
      ok: true;
      objects: DesiredObject[];
      errors: SourceProblem[];
      fromSecret: Array<{ desired: DesiredObject; pointer: string }>;
      stopped?: true;
    }
  | { ok: false; reason: string };

/** Removes every field whose string holds the Secret placeholder; returns their pointers. */
function takeOutSecretValues(node: unknown, pointer: string, found: string[]): boolean {
  if (typeof node === 'string') return node.includes(SECRET_PLACEHOLDER);
  const entries: Array<[string | number, unknown]> = Array.isArray(node)
    ? node.map((item, i) => [i, item])
    : isPlainObject(node)
      ? Object.entries(node)
      : [];
  for (const [key, value] of entries.reverse()) {
    const at = `${pointer}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!takeOutSecretValues(value, at, found)) continue;
    found.push(at);
    if (Array.isArray(node)) node.splice(key as number, 1);
    else delete (node as Record<string, unknown>)[key as string];
  }
  return false;
}

export function renderChart(input: ChartRenderInput): ChartRenderResult {
  if (!input.charts) return { ok: false, reason: 'helm not found' };
  const output = input.charts(input.request);
  if (!output.ok) return output;
  const read = chartObjects(
    {
      manifest: output.manifest,
      where: input.where,
      releaseNamespace: input.defaultNamespace ?? input.request.namespace,
      origin: input.origin,
      ...(input.kindScopes ? { kindScopes: input.kindScopes } : {}),
      ...(input.budget ? { budget: input.budget } : {}),
      ...(input.postRenderers ? { postRenderers: input.postRenderers } : {}),
    },
    output.memo,
  );
  const fromSecret: Array<{ desired: DesiredObject; pointer: string }> = [];
  for (const desired of read.objects) {
    const found: string[] = [];
    takeOutSecretValues(desired.object, '', found);
    for (const pointer of found.reverse()) fromSecret.push({ desired, pointer });
  }
  return { ok: true, ...read, fromSecret };
}

/** Helm's `--api-versions` from the snapshot's discovery: `apps/v1` and `apps/v1/Deployment`. */
export function apiVersionsOf(served: ReadonlyArray<{ group: string; version?: string; kind: string }>): string[] {
  const versions = new Set<string>();
  for (const type of served) {
    if (!type.version) continue;
    const groupVersion = type.group ? `${type.group}/${type.version}` : type.version;
    versions.add(groupVersion);
    versions.add(`${groupVersion}/${type.kind}`);
  }
  return [...versions].sort();
}
