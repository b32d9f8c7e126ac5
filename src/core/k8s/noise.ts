// What is never drift, removed from both sides before comparing: status, server-set metadata, the
// last-applied annotation. Identity fields (apiVersion, name, namespace) are not compared either:
// objects are already paired by ResourceKey, and the version a manifest is written in is not drift.
// ownerReferences are set by the controllers that own an object, never by Git.
import type { KubeObject } from '../model/index.js';
import { withoutServerMetadata } from './metadata.js';

const IDENTITY_METADATA = ['name', 'namespace', 'generateName', 'ownerReferences'] as const;

/**
 * Helm's own stamps (helm/helm pkg/action/validate.go setMetadataVisitor: the release annotations
 * `meta.helm.sh/release-name` and `-namespace` and the label `app.kubernetes.io/managed-by: Helm` it adds
 * to every object at install and upgrade, also where the chart's template does not write the label; the
 * `helm.sh/chart: <name>-<version>` label charts write, which
 * changes with every chart version — and with every commit under helm-controller's `reconcileStrategy:
 * Revision`, `<version>+<revision>` — on the object and on the templates of what it makes, Pods and
 * claims): never drift.
 */
const HELM_STAMP_LABEL = 'helm.sh/chart';
const HELM_STAMP_ANNOTATION = /^meta\.helm\.sh\//;
const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';

function withoutHelmStamps(meta: Record<string, unknown>): void {
  const labels = meta.labels as Record<string, unknown> | undefined;
  if (labels && typeof labels === 'object' && (HELM_STAMP_LABEL in labels || labels[MANAGED_BY_LABEL] === 'Helm')) {
    const isStamp = ([k, v]: [string, unknown]) => k === HELM_STAMP_LABEL || (k === MANAGED_BY_LABEL && v === 'Helm');
    meta.labels = Object.fromEntries(Object.entries(labels).filter((entry) => !isStamp(entry)));
  }
  const annotations = meta.annotations as Record<string, unknown> | undefined;
  if (
    annotations &&
    typeof annotations === 'object' &&
    Object.keys(annotations).some((k) => HELM_STAMP_ANNOTATION.test(k))
  ) {
    const kept = Object.entries(annotations).filter(([k]) => !HELM_STAMP_ANNOTATION.test(k));
    if (kept.length > 0) meta.annotations = Object.fromEntries(kept);
    else delete meta.annotations;
  }
}

/** Where a workload's templates sit under `spec`: a Pod template, a CronJob's Job template, claim templates. */
const TEMPLATE_KEYS = ['template', 'jobTemplate', 'volumeClaimTemplates'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `spec` with the Helm chart label left out of the metadata of each template under it, copied only along
 * the paths it changes (the input is never mutated).
 */
function withoutTemplateStamps(spec: unknown, depth = 0): unknown {
  if (!isRecord(spec) || depth > 3) return spec;
  let out: Record<string, unknown> | undefined;
  for (const key of TEMPLATE_KEYS) {
    const value = spec[key];
    const next = Array.isArray(value)
      ? value.map((item) => withoutTemplateStamp(item, depth))
      : withoutTemplateStamp(value, depth);
    if (Array.isArray(value) ? (next as unknown[]).some((item, i) => item !== value[i]) : next !== value) {
      out ??= { ...spec };
      out[key] = next;
    }
  }
  return out ?? spec;
}

function withoutTemplateStamp(template: unknown, depth: number): unknown {
  if (!isRecord(template)) return template;
  const labels = isRecord(template.metadata) ? template.metadata.labels : undefined;
  const spec = withoutTemplateStamps(template.spec, depth + 1);
  const stamped = isRecord(labels) && HELM_STAMP_LABEL in labels;
  if (!stamped && spec === template.spec) return template;
  const copy: Record<string, unknown> = { ...template, ...(spec === template.spec ? {} : { spec }) };
  if (stamped) {
    const { [HELM_STAMP_LABEL]: _chart, ...rest } = labels;
    copy.metadata = { ...(template.metadata as Record<string, unknown>), labels: rest };
  }
  return copy;
}

/** A shallow copy without the noise; nested objects are shared, never mutated. */
export function withoutNoise(obj: KubeObject): Record<string, unknown> {
  const { status: _status, apiVersion: _apiVersion, kind: _kind, metadata, ...rest } = obj;
  const meta = withoutServerMetadata(metadata ?? {});
  for (const field of IDENTITY_METADATA) delete meta[field];
  withoutHelmStamps(meta);
  if ('spec' in rest) rest.spec = withoutTemplateStamps(rest.spec);
  return { ...rest, metadata: meta };
}

/**
 * `null`, absent, `""`, `[]` and `{}` are the same thing to the API (omitempty), and so is a map
 * that holds only such values (`metadata: {annotations: {}}`).
 */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!isEmpty(record[key])) return false;
    return true;
  }
  return false;
}
