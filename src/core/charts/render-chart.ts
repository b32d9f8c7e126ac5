// One chart rendered for a declaration (a Flux HelmRelease, an Argo CD Application): the request
// handed to the injected renderer, its output read as desired objects, and every field that holds a value
// from a Secret (a marked placeholder, since the snapshot holds no Secret value) shown as where it comes
// from (`‹from Secret shop/webapp-secrets›`) — the live object is masked at the same places, so the
// value is never compared and never printed, though the live Deployment holds it in clear text.
import { secretMask, type KindScopes } from '../k8s/index.js';
import {
  chartFileNotRead,
  escapeSegment,
  isPlainObject,
  type DesiredObject,
  type FieldSource,
  type SourceProblem,
} from '../model/index.js';
import { chartObjects, type PostRenderer } from './output.js';
import type { ChartRenderer, ChartRequest } from './types.js';
import type { RenderBudget } from '../manifests/index.js';
import { withArchiveDefaults } from './values.js';

/** The text a value from a Secret is rendered as: this prefix and the Secret's index in `secrets`. */
export const SECRET_PLACEHOLDER = 'driftback-placeholder-from-secret';
/** The index in a placeholder's text (SECRET_PLACEHOLDER, then `-<index>-`). */
const PLACEHOLDER_INDEX = /driftback-placeholder-from-secret-(\d+)-/g;

/** The placeholder of the `index`th Secret the values read. */
export function secretPlaceholder(index: number): string {
  return `${SECRET_PLACEHOLDER}-${index}-`;
}

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
  /** The Secrets (`namespace/name`) whose values the request holds as `secretPlaceholder(index)`. */
  secrets?: readonly string[];
}

/** A field whose value comes from Secrets: the object, its pointer and the Secrets' `namespace/name`. */
interface SecretField {
  desired: DesiredObject;
  pointer: string;
  secrets: string[];
}

export type ChartRenderResult =
  | {
      ok: true;
      objects: DesiredObject[];
      errors: SourceProblem[];
      fromSecret: SecretField[];
      stopped?: true;
    }
  | { ok: false; reason: string };

/** The Secrets whose placeholders a string holds (a placeholder with an unknown index names them all). */
function secretsIn(text: string, secrets: readonly string[]): string[] {
  const found = [...text.matchAll(PLACEHOLDER_INDEX)].map((m) => secrets[Number(m[1])]);
  const named = found.every((name) => name !== undefined) && found.length > 0;
  return [...new Set(named ? (found as string[]) : secrets)];
}

/** Replaces every string holding a Secret placeholder by where it comes from; returns those fields' pointers. */
function maskPlaceholders(node: unknown, pointer: string, secrets: readonly string[]): Array<[string, string[]]> {
  const entries: Array<[string | number, unknown]> = Array.isArray(node)
    ? node.map((item, i) => [i, item])
    : isPlainObject(node)
      ? Object.entries(node)
      : [];
  const found: Array<[string, string[]]> = [];
  for (const [key, value] of entries) {
    const at = `${pointer}/${escapeSegment(String(key))}`;
    if (typeof value !== 'string' || !value.includes(SECRET_PLACEHOLDER)) {
      found.push(...maskPlaceholders(value, at, secrets));
      continue;
    }
    const from = secretsIn(value, secrets);
    (node as Record<string | number, unknown>)[key] = secretMask(from);
    found.push([at, from]);
  }
  return found;
}

export function renderChart(input: ChartRenderInput): ChartRenderResult {
  if (!input.charts) return { ok: false, reason: 'helm not found' };
  const notRead = chartFileNotRead(input.request.chart, input.where);
  if (notRead !== undefined) return { ok: false, reason: notRead };
  const output = input.charts(input.request);
  if (!output.ok) return output;
  const read = chartObjects(
    {
      manifest: output.manifest,
      where: input.where,
      releaseNamespace: input.defaultNamespace ?? input.request.namespace,
      origin: withArchiveDefaults(input.origin, output.defaults),
      ...(input.kindScopes ? { kindScopes: input.kindScopes } : {}),
      ...(input.budget ? { budget: input.budget } : {}),
      ...(input.postRenderers ? { postRenderers: input.postRenderers } : {}),
    },
    output.memo,
  );
  const fromSecret: SecretField[] = [];
  for (const desired of read.objects) {
    for (const [pointer, secrets] of maskPlaceholders(desired.object, '', input.secrets ?? [])) {
      desired.source.secretFields = { ...desired.source.secretFields, [pointer]: secretMask(secrets) };
      fromSecret.push({ desired, pointer, secrets });
    }
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
