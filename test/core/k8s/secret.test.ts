// Secrets: one "is this a Secret", values masked and compared without ever being shown.
import { describe, expect, it } from 'vitest';
import {
  foldStringData,
  isSecret,
  isSecretValuePath,
  maskSecretValues,
  secretValuesEqual,
  SECRET_HASH_PREFIX,
} from '../../../src/core/k8s/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';

const secret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'db' },
  data: { password: 'aHVudGVyMg==' },
  stringData: { user: 'admin' },
};

describe('isSecret', () => {
  it.each([
    [secret, true],
    [{ group: '', kind: 'Secret' }, true],
    [{ group: '', kind: 'ConfigMap' }, false],
    // A custom resource that happens to be called Secret holds no core Secret values.
    [{ apiVersion: 'vault.example.com/v1', kind: 'Secret', metadata: { name: 'x' } }, false],
    [{ group: 'vault.example.com', kind: 'Secret' }, false],
  ])('%j → %s', (subject, expected) => expect(isSecret(subject as KubeObject)).toBe(expected));
});

it('masks every value of data and stringData, and nothing else', () => {
  const masked = maskSecretValues(secret as Record<string, unknown>);
  // Shown with where the value comes from, never the value.
  const mask = '‹from Secret db›';
  expect(masked).toEqual({ ...secret, data: { password: mask }, stringData: { user: mask } });
  expect(secret.data).toEqual({ password: 'aHVudGVyMg==' });
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } };
  expect(maskSecretValues(configMap)).toBe(configMap);
});

it('compares values across stringData and data, and never a hashed one', () => {
  const folded = foldStringData({ stringData: { user: 'admin' }, data: { a: 'Yg==' } });
  expect(folded).toEqual({ data: { a: 'Yg==', user: 'YWRtaW4=' } });
  expect(secretValuesEqual('YWRtaW4=', 'YWRt aW4=')).toBe(true);
  expect(secretValuesEqual('YWRtaW4=', `${SECRET_HASH_PREFIX}abc`)).toBe(true);
  expect(secretValuesEqual('YWRtaW4=', 'b3RoZXI=')).toBe(false);
});

it.each([
  ['/data', true],
  ['/data/password', true],
  ['/stringData/user', true],
  ['/metadata/name', false],
  ['/database', false],
])('isSecretValuePath(%s) → %s', (pointer, expected) => expect(isSecretValuePath(pointer)).toBe(expected));
