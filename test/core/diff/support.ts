// Test helpers: fixture files → objects, and desired objects with a minimal source map.
import { parse } from 'yaml';
import { readFixture } from '../../support/fixtures.js';
import { keyOf, type DesiredObject, type KubeObject } from '../../../src/core/model/index.js';
import { configSchema, type Config } from '../../../src/core/config/index.js';

export function loadObject(...parts: string[]): KubeObject {
  return parse(readFixture('k8s-diff', ...parts)) as KubeObject;
}

/** A desired object as the manifests stage yields it; a manifest that names no namespace gets `namespace`. */
export function desiredOf(object: KubeObject, namespace = 'default', file = 'manifest.yaml'): DesiredObject {
  const key = keyOf(object);
  if (!key.namespace) key.namespace = namespace;
  return {
    key,
    object,
    source: {
      file,
      document: 0,
      location: { file, document: 0, range: [0, 0], line: 1, column: 1 },
      kustomizations: [],
      sourceName: key.name,
      fields: {},
    },
  };
}

export function configWith(drift: Record<string, unknown> = {}): Config {
  return configSchema.parse({ drift });
}

/** A shallow-then-deep copy so a test can change a fixture without touching the next test's copy. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** One managedFields entry. */
export function managed(
  manager: string,
  fieldsV1: Record<string, unknown>,
  operation = 'Update',
  time = '2026-12-01T10:00:00Z',
  subresource?: string,
): Record<string, unknown> {
  return { manager, operation, time, fieldsType: 'FieldsV1', fieldsV1, ...(subresource ? { subresource } : {}) };
}

/** A small Deployment: one container `app`, overridable anywhere by a deep merge. */
export function deployment(patch: Record<string, unknown> = {}): KubeObject {
  const base = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'shop' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: { containers: [{ name: 'app', image: 'api:1', ports: [{ containerPort: 8080 }] }] },
      },
    },
  };
  return merge(base, patch) as KubeObject;
}

function merge(base: unknown, patch: unknown): unknown {
  if (
    typeof base !== 'object' ||
    base === null ||
    Array.isArray(base) ||
    typeof patch !== 'object' ||
    patch === null ||
    Array.isArray(patch)
  )
    return patch;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch)) out[k] = v === undefined ? undefined : merge(out[k], v);
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
export { merge as deepMerge };
