// Which names the Kubernetes API accepts, per kind, as its validation applies them
// (kubernetes/kubernetes pkg/apis/core/validation: ValidateServiceName = NameIsDNS1035Label,
// ValidateNamespaceName = NameIsDNSLabel, most others NameIsDNSSubdomain; pkg/apis/rbac/validation:
// ValidateRBACName = path.IsValidPathSegmentName; custom resources: NameIsDNSSubdomain). A name
// that no API server would accept did not come from one, and it is never turned into a file path.
import { isPlainObject } from '../model/object.js';

export type NameRule = 'dns-1123-subdomain' | 'dns-1123-label' | 'dns-1035-label' | 'path-segment';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** Kinds whose names follow another rule than a DNS-1123 subdomain, by `group/kind`. */
const RULES: ReadonlyMap<string, NameRule> = new Map([
  ['/Namespace', 'dns-1123-label'],
  ['/Service', 'dns-1035-label'],
  ['rbac.authorization.k8s.io/Role', 'path-segment'],
  ['rbac.authorization.k8s.io/ClusterRole', 'path-segment'],
  ['rbac.authorization.k8s.io/RoleBinding', 'path-segment'],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', 'path-segment'],
]);

export function nameRuleFor(group: string, kind: string): NameRule {
  return RULES.get(`${group}/${kind}`) ?? 'dns-1123-subdomain';
}

/** Why `value` breaks `rule`, in the API server's words, or undefined when it does not. */
export function ruleProblem(rule: NameRule, value: string): string | undefined {
  switch (rule) {
    case 'dns-1123-label':
      if (value.length <= 63 && DNS1123_LABEL.test(value)) return undefined;
      return 'must be a lowercase RFC 1123 label: at most 63 lower case alphanumeric characters or "-", starting and ending with an alphanumeric character';
    case 'dns-1035-label':
      if (value.length <= 63 && DNS1035_LABEL.test(value)) return undefined;
      return 'must be an RFC 1035 label: at most 63 lower case alphanumeric characters or "-", starting with a letter and ending with an alphanumeric character';
    case 'dns-1123-subdomain':
      if (value.length <= 253 && DNS1123_SUBDOMAIN.test(value)) return undefined;
      return 'must be a lowercase RFC 1123 subdomain: at most 253 lower case alphanumeric characters, "-" or ".", starting and ending with an alphanumeric character';
    case 'path-segment':
      if (value !== '.' && value !== '..' && !value.includes('/') && !value.includes('%') && value !== '')
        return undefined;
      return 'may not be "." or "..", nor contain "/" or "%"';
  }
}

function groupAndVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/**
 * Problems of an object's apiVersion, kind, name and namespace, with the field they are at
 * (`metadata.name`), as the API server would refuse them.
 */
export function identityProblems(object: unknown): Array<{ path: string; message: string }> {
  if (
    !isPlainObject(object) ||
    typeof object.apiVersion !== 'string' ||
    typeof object.kind !== 'string' ||
    !isPlainObject(object.metadata)
  )
    return [];
  const problems: Array<{ path: string; message: string }> = [];
  const { group, version } = groupAndVersion(object.apiVersion);
  if ((group !== '' && ruleProblem('dns-1123-subdomain', group)) || ruleProblem('dns-1035-label', version)) {
    problems.push({
      path: 'apiVersion',
      message: `${JSON.stringify(object.apiVersion)} is not an API version: expected <group>/<version> (group a DNS subdomain, version like v1)`,
    });
  }
  // A CustomResourceDefinition's kind, lower-cased, must be a DNS-1035 label; built-in kinds are too.
  if (ruleProblem('dns-1035-label', object.kind.toLowerCase())) {
    problems.push({
      path: 'kind',
      message: `${JSON.stringify(object.kind)} is not a kind: expected letters, digits and "-", starting with a letter (CamelCase, as the API writes it)`,
    });
  }
  const { name, namespace } = object.metadata;
  if (typeof name === 'string') {
    const problem = ruleProblem(nameRuleFor(group, object.kind), name);
    if (problem)
      problems.push({
        path: 'metadata.name',
        message: `${JSON.stringify(name)} is not a valid ${object.kind} name: it ${problem}`,
      });
  }
  if (typeof namespace === 'string' && namespace !== '') {
    const problem = ruleProblem('dns-1123-label', namespace);
    if (problem)
      problems.push({
        path: 'metadata.namespace',
        message: `${JSON.stringify(namespace)} is not a namespace name: it ${problem}`,
      });
  }
  return problems;
}
