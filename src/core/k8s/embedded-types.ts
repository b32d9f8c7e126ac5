// Custom workloads that embed a built-in type: an Argo Rollout's `spec.template` is a Kubernetes
// PodTemplateSpec (argo-rollouts pkg/apis/rollouts/v1alpha1/types.go `Template corev1.PodTemplateSpec`),
// and its controller reads it through that Go type. Such a field is compared as the built-in type it
// is: containers keyed by name, a zero value its Go encoding drops equal to its absence. Argo CD does
// the same for Rollouts by default (argo-cd util/argo/normalizers/knowntypes_normalizer.go,
// ensureDefaultCRDsConfigured: `spec.template.spec` as `corev1.PodSpec`).

/** `group/Kind` → pointer pattern of the embedding field → the built-in schema's short name. */
const EMBEDDED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'argoproj.io/Rollout': { '/spec/template': 'core.v1.PodTemplateSpec' },
  // argo-rollouts pkg/apis/rollouts/v1alpha1/experiment_types.go: TemplateSpec.Template corev1.PodTemplateSpec
  'argoproj.io/Experiment': { '/spec/templates/*/template': 'core.v1.PodTemplateSpec' },
};

export interface EmbeddedAt {
  /** The built-in schema's short name (`core.v1.PodTemplateSpec`). */
  schema: string;
  /** The rest of the pattern, relative to that schema ('' for the field itself). */
  rest: string;
}

/** The built-in type a custom kind embeds at or above `pattern`, and where the pattern is inside it. */
export function embeddedAt(group: string, kind: string, pattern: string): EmbeddedAt | undefined {
  const fields = EMBEDDED[`${group}/${kind}`];
  if (!fields) return undefined;
  for (const [at, schema] of Object.entries(fields)) {
    if (pattern === at || pattern.startsWith(at + '/')) return { schema, rest: pattern.slice(at.length) };
  }
  return undefined;
}
