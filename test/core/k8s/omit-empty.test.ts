// Zero values the API server drops. The table was read from the Go types of k8s.io/api
// (github.com/kubernetes/api `*/types.go`: `bool`/`int32`/`int64` fields, no pointer, `json:",omitempty"`);
// every row must be a boolean or integer field of that name in Kubernetes' OpenAPI schema, and the
// pointer fields next to them (`*bool`, `*int32` in the same files) must not be rows: their false or 0
// is kept, and differs from absent.
import { describe, expect, it } from 'vitest';
import { dropsZero } from '../../../src/core/k8s/index.js';
import { ZERO_OMITTED } from '../../../src/core/k8s/omit-empty.js';
import { DEFS } from '../../../src/core/k8s/schema.generated.js';

describe('the table of zero-dropping fields', () => {
  const rows = Object.entries(ZERO_OMITTED).flatMap(([schema, fields]) => fields.map((field) => [schema, field]));

  it.each(rows)(
    '%s.%s is a boolean or integer field of the OpenAPI schema, and not a required one',
    (schema, field) => {
      const def = DEFS[schema!];
      expect(def, `${schema} is not a schema of the OpenAPI documents`).toBeDefined();
      expect(['b', 'i']).toContain(def!.p[field!]);
      expect(def!.r ?? []).not.toContain(field);
    },
  );

  // Pointer fields of the same types (k8s.io/api core/v1/types.go, apps/v1/types.go, batch/v1/types.go).
  it.each([
    ['core.v1.SecurityContext', 'privileged'],
    ['core.v1.SecurityContext', 'allowPrivilegeEscalation'],
    ['core.v1.SecurityContext', 'readOnlyRootFilesystem'],
    ['core.v1.SecurityContext', 'runAsNonRoot'],
    ['core.v1.PodSpec', 'automountServiceAccountToken'],
    ['core.v1.PodSpec', 'enableServiceLinks'],
    ['core.v1.PodSpec', 'shareProcessNamespace'],
    ['core.v1.PodSpec', 'terminationGracePeriodSeconds'],
    ['core.v1.ConfigMapVolumeSource', 'optional'],
    ['core.v1.SecretKeySelector', 'optional'],
    ['apps.v1.DeploymentSpec', 'replicas'],
    ['apps.v1.DeploymentSpec', 'revisionHistoryLimit'],
    ['batch.v1.CronJobSpec', 'suspend'],
    ['batch.v1.JobSpec', 'backoffLimit'],
    ['core.v1.ContainerPort', 'containerPort'],
  ])('%s.%s keeps its zero: not a row', (schema, field) => {
    expect(DEFS[schema]?.p[field]).toMatch(/^[bi]$/);
    expect(ZERO_OMITTED[schema] ?? []).not.toContain(field);
  });
});

describe('dropsZero: the field at a place, found through the kind’s schema', () => {
  it.each([
    [
      'a volumeMount’s readOnly',
      'apps',
      'Deployment',
      'v1',
      '/spec/template/spec/containers/*/volumeMounts/*/readOnly',
      true,
    ],
    ['hostNetwork of a pod template', 'apps', 'DaemonSet', 'v1', '/spec/template/spec/hostNetwork', true],
    ['hostPID of a Pod', '', 'Pod', 'v1', '/spec/hostPID', true],
    [
      'a CronJob’s job template probe',
      'batch',
      'CronJob',
      'v1',
      '/spec/jobTemplate/spec/template/spec/initContainers/*/livenessProbe/initialDelaySeconds',
      true,
    ],
    ['a Service port’s nodePort', '', 'Service', 'v1', '/spec/ports/*/nodePort', true],
    ['a Deployment’s paused', 'apps', 'Deployment', 'v1', '/spec/paused', true],
    [
      'privileged is a pointer',
      'apps',
      'Deployment',
      'v1',
      '/spec/template/spec/containers/*/securityContext/privileged',
      false,
    ],
    ['replicas is a pointer', 'apps', 'Deployment', 'v1', '/spec/replicas', false],
    ['a version the documents lack falls back to the kind', 'apps', 'Deployment', 'v1beta9', '/spec/paused', true],
    [
      'a Rollout’s pod template is a PodTemplateSpec',
      'argoproj.io',
      'Rollout',
      'v1alpha1',
      '/spec/template/spec/containers/*/volumeMounts/*/readOnly',
      true,
    ],
    [
      'but a Rollout’s own fields are no Go type known here',
      'argoproj.io',
      'Rollout',
      'v1alpha1',
      '/spec/paused',
      false,
    ],
    ['a custom kind keeps every value', 'example.com', 'Widget', 'v1', '/spec/readOnly', false],
  ])('%s', (_name, group, kind, version, pattern, expected) => {
    expect(dropsZero(group, kind, version, pattern)).toBe(expected);
  });
});
