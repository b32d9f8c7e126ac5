// Which names the Kubernetes API accepts, per kind, as its validation applies them, and which names
// can become a file name. Sources (kubernetes/kubernetes): apimachinery pkg/api/validation
// (ValidateObjectMeta: every namespace a DNS-1123 label; NameIsDNSSubdomain, NameIsDNSLabel,
// NameIsDNS1035Label), pkg/api/validation/path (IsValidPathSegmentName), pkg/apis/core/validation
// (ValidateServiceName = NameIsDNS1035Label, ValidateNamespaceName = NameIsDNSLabel, the rest
// NameIsDNSSubdomain), pkg/apis/rbac/validation (ValidateRBACName = path.IsValidPathSegmentName),
// kube-aggregator pkg/apis/apiregistration/validation (APIService: a path segment equal to
// `spec.version + "." + spec.group`, the group empty only for v1), apiextensions-apiserver
// pkg/apis/apiextensions/validation (CRD: `spec.names.plural + "." + spec.group`; custom resources
// NameIsDNSSubdomain), pkg/apis/batch/validation (a CronJob name at most 52 characters), and
// apiserver pkg/registry/generic/registry (every stored name is a path segment: the etcd key).
// A name no API server accepts did not come from one; a name that is no file name is never written
// as one. Neither stops a snapshot: the object is listed with the reason (screenObjects).
import { isPlainObject, keyOf, type KubeObject, type ResourceKey } from '../model/index.js';

export type NameRule = 'dns-1123-subdomain' | 'dns-1123-label' | 'dns-1035-label' | 'path-segment';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
// pkg/apis/core/validation csiDriverNameRexpFmt, at most 63 characters.
const CSI_DRIVER = /^[a-zA-Z0-9][-a-zA-Z0-9_.]{0,61}[a-zA-Z-0-9]$/;
// Control characters (C0 and DEL): they end a line in a file name, a YAML key or a terminal.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

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

/** A kind's name check: its rule, and what else its validation asks of the name given the object. */
interface NameCheck {
  rule: NameRule;
  also?: (name: string, object: Record<string, unknown>) => string | undefined;
}

function field(object: Record<string, unknown>, ...path: string[]): unknown {
  let value: unknown = object;
  for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
  return value;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function apiServiceName(name: string, object: Record<string, unknown>): string | undefined {
  const required = `${text(field(object, 'spec', 'version'))}.${text(field(object, 'spec', 'group'))}`;
  return name === required ? undefined : `must be spec.version+"."+spec.group: "${required}"`;
}

function crdName(name: string, object: Record<string, unknown>): string | undefined {
  const required = `${text(field(object, 'spec', 'names', 'plural'))}.${text(field(object, 'spec', 'group'))}`;
  return name === required ? undefined : `must be spec.names.plural+"."+spec.group: "${required}"`;
}

/** pkg/apis/networking/validation ValidateIPAddressName: an IP address in canonical form. */
function ipAddressName(name: string): string | undefined {
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
  if (v4.test(name)) return undefined;
  if (/^[0-9a-f:.]+$/.test(name) && name.includes(':')) {
    try {
      if (new URL(`http://[${name}]/`).hostname === `[${name}]`) return undefined;
    } catch {
      // not an IPv6 address
    }
  }
  return 'must be an IP address in canonical form';
}

/** pkg/apis/certificates/validation ValidateClusterTrustBundleName: `<signer with / as :>:<name>`. */
function clusterTrustBundleName(name: string, object: Record<string, unknown>): string | undefined {
  const signer = text(field(object, 'spec', 'signerName'));
  if (!signer) return name.includes(':') ? 'must not have ":" in its name without spec.signerName' : undefined;
  const prefix = `${signer.replace(/\//g, ':')}:`;
  if (!name.startsWith(prefix)) return `must be named with prefix ${prefix}`;
  return ruleProblem('dns-1123-subdomain', name.slice(prefix.length));
}

/** Kinds whose names follow another rule than a DNS-1123 subdomain, by `group/kind`. */
const CHECKS: ReadonlyMap<string, NameCheck> = new Map<string, NameCheck>([
  ['/Namespace', { rule: 'dns-1123-label' }],
  ['/Service', { rule: 'dns-1035-label' }],
  ['rbac.authorization.k8s.io/Role', { rule: 'path-segment' }],
  ['rbac.authorization.k8s.io/ClusterRole', { rule: 'path-segment' }],
  ['rbac.authorization.k8s.io/RoleBinding', { rule: 'path-segment' }],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', { rule: 'path-segment' }],
  ['apiregistration.k8s.io/APIService', { rule: 'path-segment', also: apiServiceName }],
  ['apiextensions.k8s.io/CustomResourceDefinition', { rule: 'dns-1123-subdomain', also: crdName }],
  [
    'batch/CronJob',
    {
      rule: 'dns-1123-subdomain',
      also: (name) => (name.length > 52 ? 'must be no more than 52 characters' : undefined),
    },
  ],
  ['certificates.k8s.io/CertificateSigningRequest', { rule: 'path-segment' }],
  ['certificates.k8s.io/ClusterTrustBundle', { rule: 'path-segment', also: clusterTrustBundleName }],
  [
    'storage.k8s.io/CSIDriver',
    {
      rule: 'path-segment',
      also: (name) =>
        CSI_DRIVER.test(name)
          ? undefined
          : "must consist of alphanumeric characters, '-', '_' or '.', start and end with an alphanumeric character, at most 63 characters",
    },
  ],
  ['networking.k8s.io/IPAddress', { rule: 'path-segment', also: ipAddressName }],
]);

/** The rule a kind's names follow (custom resources and every kind not listed: a DNS-1123 subdomain). */
export function nameRuleFor(group: string, kind: string): NameRule {
  return CHECKS.get(`${group}/${kind}`)?.rule ?? 'dns-1123-subdomain';
}

/** Why the API server would refuse this object's name, or undefined when it accepts it. */
export function apiNameProblem(object: Record<string, unknown>, group: string, kind: string, name: string) {
  const check = CHECKS.get(`${group}/${kind}`) ?? { rule: 'dns-1123-subdomain' };
  return ruleProblem(check.rule, name) ?? check.also?.(name, object);
}

/** Why a name cannot be part of a file name, or undefined when it can. */
export function fileNameProblem(name: string): string | undefined {
  if (name === '' || name === '.') return 'is empty or "."';
  if (name.includes('/')) return 'contains "/"';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('%')) return 'contains "%"';
  if (CONTROL.test(name)) return 'contains a control character';
  return undefined;
}

function groupAndVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export type IdentityPath = 'apiVersion' | 'kind' | 'metadata.name' | 'metadata.namespace';

function nameProblems(object: Record<string, unknown>, group: string, kind: string, name: string) {
  const shown = JSON.stringify(name);
  const api = apiNameProblem(object, group, kind, name);
  if (api) return [{ path: 'metadata.name' as const, message: `${shown} is not a valid ${kind} name: it ${api}` }];
  const file = fileNameProblem(name);
  if (file) return [{ path: 'metadata.name' as const, message: `${shown} cannot be a file name: it ${file}` }];
  return [];
}

/**
 * Problems of an object's apiVersion, kind, name and namespace, with the field they are at
 * (`metadata.name`): what the API server would refuse, and a name that cannot be a file name.
 */
export function identityProblems(object: unknown): Array<{ path: IdentityPath; message: string }> {
  if (
    !isPlainObject(object) ||
    typeof object.apiVersion !== 'string' ||
    typeof object.kind !== 'string' ||
    !isPlainObject(object.metadata)
  )
    return [];
  const problems: Array<{ path: IdentityPath; message: string }> = [];
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
  if (typeof name === 'string') problems.push(...nameProblems(object, group, object.kind, name));
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

/** A live object listed with the reason it is not written as a file (and, when its identity is unusable, not compared). */
export interface SkippedObject {
  /** Where it is in the snapshot: `items[12]`. */
  item: string;
  id: ResourceKey;
  /** The field at fault: `metadata.name`, `kind`, … */
  path: IdentityPath;
  message: string;
  /**
   * True: kept for diff, plan and reports, never written as a file (only its name is at fault). False:
   * its apiVersion, kind or namespace is unusable, so it cannot be told apart from other objects: left out.
   */
  compared: boolean;
}

/** The objects that can be compared, and every object listed with what is wrong with its identity. */
export function screenObjects(items: readonly KubeObject[]): { comparable: KubeObject[]; skipped: SkippedObject[] } {
  const comparable: KubeObject[] = [];
  const skipped: SkippedObject[] = [];
  items.forEach((object, index) => {
    const problems = identityProblems(object);
    const compared = problems.every((problem) => problem.path === 'metadata.name');
    if (compared) comparable.push(object);
    if (problems.length === 0) return;
    const first = problems.find((problem) => problem.path !== 'metadata.name') ?? problems[0];
    skipped.push({ item: `items[${index}]`, id: keyOf(object), path: first.path, message: first.message, compared });
  });
  return { comparable, skipped };
}

/** As the upload answer and `diff --format json` list it: `{path, id, message, compared}`. */
export function skippedEntry(object: SkippedObject) {
  return { path: `${object.item}.${object.path}`, id: object.id, message: object.message, compared: object.compared };
}

/** One line of text: `items[3] ClusterRole: "ops\nadmin" cannot be a file name: …; compared, never written as a file`. */
export function skippedLine(object: SkippedObject): string {
  const what = object.compared ? 'compared, never written as a file' : 'not compared: it cannot be told apart';
  return `${object.item} ${JSON.stringify(object.id.kind)}: ${object.message}; ${what}`;
}
