// Names as the Kubernetes API validates them, per kind: one row per kind whose rule differs, each with
// the upstream function it follows (kubernetes/kubernetes unless said), names real clusters hold (a
// fresh kind cluster's APIServices and bootstrap RBAC) and names the API server refuses. What cannot
// be a file name is listed too, and nothing that could climb out of a directory passes.
import { describe, expect, it } from 'vitest';
import {
  apiNameProblem,
  fileNameProblem,
  identityProblems,
  nameRuleFor,
  ruleProblem,
  screenObjects,
} from '../../../src/core/k8s/object-names.js';

describe('the rule per kind', () => {
  it.each([
    // pkg/apis/core/validation: ValidateNamespaceName = apimachinery ValidateNamespaceName (NameIsDNSLabel)
    ['', 'Namespace', 'dns-1123-label'],
    // pkg/apis/core/validation: ValidateServiceName = NameIsDNS1035Label
    ['', 'Service', 'dns-1035-label'],
    // pkg/apis/core/validation: ValidateConfigMapName, ValidatePodName, ValidateSecretName … = NameIsDNSSubdomain
    ['', 'ConfigMap', 'dns-1123-subdomain'],
    ['', 'ServiceAccount', 'dns-1123-subdomain'],
    // pkg/apis/apps/validation: ValidateDeploymentName = NameIsDNSSubdomain
    ['apps', 'Deployment', 'dns-1123-subdomain'],
    // pkg/apis/rbac/validation: ValidateRBACName = path.IsValidPathSegmentName
    ['rbac.authorization.k8s.io', 'Role', 'path-segment'],
    ['rbac.authorization.k8s.io', 'ClusterRole', 'path-segment'],
    ['rbac.authorization.k8s.io', 'RoleBinding', 'path-segment'],
    ['rbac.authorization.k8s.io', 'ClusterRoleBinding', 'path-segment'],
    // kube-aggregator pkg/apis/apiregistration/validation: ValidateAPIService (path segment first)
    ['apiregistration.k8s.io', 'APIService', 'path-segment'],
    // pkg/apis/certificates/validation: ValidateCertificateRequestName returns nothing; the etcd key needs a path segment
    ['certificates.k8s.io', 'CertificateSigningRequest', 'path-segment'],
    // pkg/apis/flowcontrol/validation: ValidateFlowSchemaName = NameIsDNSSubdomain
    ['flowcontrol.apiserver.k8s.io', 'FlowSchema', 'dns-1123-subdomain'],
    // apiextensions-apiserver registry/customresource validator: NameIsDNSSubdomain
    ['example.com', 'Widget', 'dns-1123-subdomain'],
  ])('%s %s names are %s', (group, kind, rule) => {
    expect(nameRuleFor(group, kind)).toBe(rule);
  });
});

describe('names', () => {
  it.each([
    ['dns-1123-subdomain', 'api', true],
    ['dns-1123-subdomain', 'api.v2-canary', true],
    ['dns-1123-subdomain', 'a'.repeat(253), true],
    ['dns-1123-subdomain', 'a'.repeat(254), false],
    ['dns-1123-subdomain', 'Api', false],
    ['dns-1123-subdomain', 'x/../../prod-us/backdoor', false],
    ['dns-1123-subdomain', '../../.github/workflows/deploy', false],
    ['dns-1123-subdomain', '-api', false],
    ['dns-1123-label', 'checkout', true],
    ['dns-1123-label', 'a.b', false],
    ['dns-1123-label', 'a'.repeat(64), false],
    ['dns-1035-label', 'web', true],
    ['dns-1035-label', '1web', false],
    ['path-segment', 'system:controller:deployment-controller', true],
    ['path-segment', 'system::leader-locking-kube-controller-manager', true],
    ['path-segment', 'Admin', true],
    ['path-segment', '..', false],
    ['path-segment', 'a/b', false],
    ['path-segment', 'a%2fb', false],
  ] as const)('%s %j: %s', (rule, name, valid) => {
    expect(ruleProblem(rule, name) === undefined).toBe(valid);
  });
});

const apiService = (name: string, version: string, group?: string) => ({
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata: { name },
  spec: { version, ...(group ? { group } : {}) },
});

describe('names that depend on the object', () => {
  // kube-aggregator ValidateAPIService: the name must be `spec.version + "." + spec.group`; the core
  // group is empty, so its APIService is `v1.` (as every cluster has it).
  it.each([
    [apiService('v1.', 'v1'), true],
    [apiService('v1.apps', 'v1', 'apps'), true],
    [apiService('v2.autoscaling', 'v2', 'autoscaling'), true],
    [apiService('v1beta1.metrics.k8s.io', 'v1beta1', 'metrics.k8s.io'), true],
    [apiService('v1', 'v1'), false],
    [apiService('v1.apps', 'v1', 'batch'), false],
  ])('APIService %j accepted: %s', (object, valid) => {
    expect(apiNameProblem(object, 'apiregistration.k8s.io', 'APIService', object.metadata.name) === undefined).toBe(
      valid,
    );
  });

  it('APIService: the reason names the required name', () => {
    const object = apiService('v1', 'v1');
    expect(apiNameProblem(object, 'apiregistration.k8s.io', 'APIService', 'v1')).toBe(
      'must be spec.version+"."+spec.group: "v1."',
    );
  });

  // apiextensions-apiserver pkg/apis/apiextensions/validation ValidateCustomResourceDefinition.
  it.each([
    ['kustomizations.kustomize.toolkit.fluxcd.io', true],
    ['kustomization.kustomize.toolkit.fluxcd.io', false],
  ])('CustomResourceDefinition %s accepted: %s', (name, valid) => {
    const crd = { spec: { group: 'kustomize.toolkit.fluxcd.io', names: { plural: 'kustomizations' } } };
    expect(apiNameProblem(crd, 'apiextensions.k8s.io', 'CustomResourceDefinition', name) === undefined).toBe(valid);
  });

  // pkg/apis/batch/validation ValidateCronJobCreate: the controller appends an 11-character suffix.
  it.each([
    ['a'.repeat(52), true],
    ['a'.repeat(53), false],
  ])('CronJob %s accepted: %s', (name, valid) => {
    expect(apiNameProblem({}, 'batch', 'CronJob', name) === undefined).toBe(valid);
  });

  // pkg/apis/networking/validation ValidateIPAddressName: an IP address in canonical form.
  it.each([
    ['10.96.0.1', true],
    ['2001:db8::1', true],
    ['010.96.0.1', false],
    ['2001:0db8::1', false],
    ['2001:DB8::1', false],
  ])('IPAddress %s accepted: %s', (name, valid) => {
    expect(apiNameProblem({}, 'networking.k8s.io', 'IPAddress', name) === undefined).toBe(valid);
  });

  // pkg/apis/storage/validation ValidateCSIDriver → core ValidateCSIDriverName (csiDriverNameRexpFmt).
  it.each([
    ['ebs.csi.aws.com', true],
    ['Driver_1', true],
    ['-driver', false],
  ])('CSIDriver %s accepted: %s', (name, valid) => {
    expect(apiNameProblem({}, 'storage.k8s.io', 'CSIDriver', name) === undefined).toBe(valid);
  });

  // pkg/apis/certificates/validation ValidateClusterTrustBundleName.
  it.each([
    [{ spec: { signerName: 'example.com/signer' } }, 'example.com:signer:bundle-1', true],
    [{ spec: { signerName: 'example.com/signer' } }, 'bundle-1', false],
    [{ spec: {} }, 'bundle-1', true],
    [{ spec: {} }, 'a:b', false],
  ])('ClusterTrustBundle %j %s accepted: %s', (object, name, valid) => {
    expect(apiNameProblem(object, 'certificates.k8s.io', 'ClusterTrustBundle', name) === undefined).toBe(valid);
  });
});

describe('file names', () => {
  it.each([
    ['system:controller:deployment-controller', undefined],
    ['v1.', undefined],
    ['a/b', 'contains "/"'],
    ['a..b', 'contains ".."'],
    ['50%', 'contains "%"'],
    ['ops\nadmin', 'contains a control character'],
    ['', 'is empty or "."'],
  ])('%j: %s', (name, problem) => {
    expect(fileNameProblem(name)).toBe(problem);
  });
});

describe('identityProblems', () => {
  it('accepts objects as API servers return them', () => {
    expect(
      identityProblems({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'checkout' } }),
    ).toEqual([]);
    expect(
      identityProblems({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'system:aggregate-to-edit' },
      }),
    ).toEqual([]);
    expect(identityProblems(apiService('v1.', 'v1'))).toEqual([]);
    expect(identityProblems({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } })).toEqual([]);
  });

  it('names each field an API server would refuse', () => {
    const problems = identityProblems({
      apiVersion: 'apps/v1/../x',
      kind: 'Deploy/ment',
      metadata: { name: 'x/../../prod-us/backdoor', namespace: '../.github' },
    });
    expect(problems.map((problem) => problem.path)).toEqual([
      'apiVersion',
      'kind',
      'metadata.name',
      'metadata.namespace',
    ]);
    expect(problems[2].message).toBe(
      '"x/../../prod-us/backdoor" is not a valid Deploy/ment name: it must be a lowercase RFC 1123 subdomain: at most 253 lower case alphanumeric characters, "-" or ".", starting and ending with an alphanumeric character',
    );
  });

  it('names a name the API accepts that cannot be a file name', () => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'ops\nadmin' } };
    expect(identityProblems(role)).toEqual([
      { path: 'metadata.name', message: '"ops\\nadmin" cannot be a file name: it contains a control character' },
    ]);
  });
});

describe('screenObjects', () => {
  it('keeps an object whose only fault is its name for comparison, and leaves out one whose identity is unusable', () => {
    const items = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fine', namespace: 'checkout' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'ops\nadmin' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: '../etc' } },
      apiService('v1.', 'v1'),
    ];
    const { comparable, skipped } = screenObjects(items);
    expect(comparable).toEqual([items[0], items[1], items[3]]);
    expect(skipped).toEqual([
      {
        item: 'items[1]',
        id: { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', namespace: '', name: 'ops\nadmin' },
        path: 'metadata.name',
        message: expect.stringContaining('cannot be a file name'),
        compared: true,
      },
      {
        item: 'items[2]',
        id: { group: '', kind: 'ConfigMap', namespace: '../etc', name: 'x' },
        path: 'metadata.namespace',
        message: expect.stringContaining('is not a namespace name'),
        compared: false,
      },
    ]);
  });
});
