// The Application type's fields (pkg/apis/application/v1alpha1/types.go) as encoding/json decodes a
// templatePatch into them (patch.go: `json.Unmarshal(patch, &appv1.Application{})`): a string field
// takes only a string, a bool only true/false, an int64 only a whole number, a struct or map only a
// map, a list only a list; `null` fits anything and a field the type does not have is ignored. A
// patch that does not decode is refused by Argo CD before it is applied.
import { isPlainObject } from '../model/index.js';

type Shape = 'string' | 'bool' | 'int' | 'raw' | 'strings' | 'stringMap' | 'object' | 'list' | Fields | [Shape];
interface Fields {
  [field: string]: Shape;
}

const S = 'string';
const B = 'bool';

const HELM: Fields = {
  valueFiles: 'strings',
  parameters: [{ name: S, value: S, forceString: B }],
  releaseName: S,
  values: S,
  fileParameters: [{ name: S, path: S }],
  version: S,
  passCredentials: B,
  ignoreMissingValueFiles: B,
  skipCrds: B,
  valuesObject: 'raw',
  namespace: S,
  kubeVersion: S,
  apiVersions: 'strings',
  skipTests: B,
  skipSchemaValidation: B,
};

const KUSTOMIZE: Fields = {
  ...{ namePrefix: S, nameSuffix: S, images: 'strings', commonLabels: 'stringMap', version: S },
  ...{ commonAnnotations: 'stringMap', forceCommonLabels: B, forceCommonAnnotations: B, namespace: S },
  ...{ commonAnnotationsEnvsubst: B, replicas: 'list', patches: 'list', components: 'strings' },
  ...{ ignoreMissingComponents: B, labelWithoutSelector: B, kubeVersion: S, apiVersions: 'strings' },
  labelIncludeTemplates: B,
};

const SOURCE: Fields = {
  ...{ repoURL: S, path: S, targetRevision: S, helm: HELM, kustomize: KUSTOMIZE },
  directory: { recurse: B, jsonnet: 'object', exclude: S, include: S, disableExtensionFilter: B },
  ...{ plugin: 'object', chart: S, ref: S, name: S, tagPrefix: S },
};

const SYNC_POLICY: Fields = {
  automated: { prune: B, selfHeal: B, allowEmpty: B, enabled: B },
  syncOptions: 'strings',
  retry: { limit: 'int', backoff: { duration: S, factor: 'int', maxDuration: S }, refresh: B },
  managedNamespaceMetadata: { labels: 'stringMap', annotations: 'stringMap' },
};

const APPLICATION: Fields = {
  metadata: { name: S, namespace: S, labels: 'stringMap', annotations: 'stringMap', finalizers: 'strings' },
  spec: {
    ...{ source: SOURCE, destination: { server: S, namespace: S, name: S }, project: S },
    ...{ syncPolicy: SYNC_POLICY, ignoreDifferences: 'list', info: 'list', revisionHistoryLimit: 'int' },
    ...{ sources: [SOURCE], sourceHydrator: 'object' },
  },
};

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  return typeof value === 'number' ? 'number' : typeof value;
}

function fits(value: unknown, shape: Shape): boolean {
  if (shape === 'string') return typeof value === 'string';
  if (shape === 'bool') return typeof value === 'boolean';
  if (shape === 'int') return typeof value === 'number' && Number.isInteger(value);
  if (shape === 'raw') return true;
  if (shape === 'strings' || shape === 'list' || Array.isArray(shape)) return Array.isArray(value);
  return isPlainObject(value);
}

const GO_TYPE: Record<string, string> = {
  string: 'string',
  bool: 'bool',
  int: 'int64',
  strings: '[]string',
  list: 'slice',
  stringMap: 'map[string]string',
};

/** Why the value does not decode into the Application type, or undefined when it does. */
export function applicationTypeError(value: unknown): string | undefined {
  return typeError(value, APPLICATION, '');
}

function typeError(value: unknown, shape: Shape, path: string): string | undefined {
  if (value === null || shape === 'raw') return undefined;
  if (!fits(value, shape)) {
    const type = typeof shape === 'string' ? (GO_TYPE[shape] ?? 'struct') : Array.isArray(shape) ? 'slice' : 'struct';
    return `json: cannot unmarshal ${jsonKind(value)} into Go struct field Application${path} of type ${type}`;
  }
  if (shape === 'strings' || Array.isArray(shape)) {
    const item: Shape = shape === 'strings' ? 'string' : shape[0]!;
    for (const element of value as unknown[]) {
      const error = typeError(element, item, path);
      if (error) return error;
    }
    return undefined;
  }
  if (typeof shape === 'string') {
    if (shape !== 'stringMap') return undefined;
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      if (item !== null && typeof item !== 'string') return typeError(item, 'string', `${path}.${key}`);
    return undefined;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const error = Object.hasOwn(shape, key) ? typeError(item, shape[key]!, `${path}.${key}`) : undefined;
    if (error) return error;
  }
  return undefined;
}
