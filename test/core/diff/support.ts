// Test helpers: fixture files → objects, and desired objects with a minimal source map.
import { parse } from 'yaml';
import { readFixture } from '../../support/fixtures.js';
import { keyOf, type DesiredObject, type KubeObject } from '../../../src/core/model/index.js';
import { configSchema, type Config } from '../../../src/core/config/index.js';

export function loadObject(...parts: string[]): KubeObject {
  return parse(readFixture('k8s-diff', ...parts)) as KubeObject;
}

export function desiredOf(object: KubeObject, file = 'manifest.yaml'): DesiredObject {
  const key = keyOf(object);
  if (!key.namespace) key.namespace = 'default';
  return {
    key,
    object,
    source: {
      file, document: 0, location: { file, document: 0, range: [0, 0], line: 1, column: 1 },
      kustomizations: [], sourceName: key.name, fields: {},
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
