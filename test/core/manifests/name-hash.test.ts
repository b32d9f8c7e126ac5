// kustomize's content-hash suffix, checked against the values in kustomize's own hasher tests.
import { describe, expect, it } from 'vitest';
import { kustomizeHash } from '../../../src/core/manifests/index.js';
import { loadYamlFile } from '../../../src/core/manifests/read-yaml.js';
import type { TrackedMap } from '../../../src/core/manifests/tracked.js';

const hashOf = (text: string): string => kustomizeHash(loadYamlFile('x.yaml', text).documents[0].root as TrackedMap);

describe('kustomizeHash', () => {
  it.each([
    ['empty ConfigMap', 'apiVersion: v1\nkind: ConfigMap', '6ct58987ht'],
    ['one key', 'apiVersion: v1\nkind: ConfigMap\ndata:\n  one: ""', '9g67k2htb6'],
    ['three keys, sorted', 'apiVersion: v1\nkind: ConfigMap\ndata:\n  two: 2\n  one: ""\n  three: 3', '7757f9kkct'],
    ['binaryData', 'apiVersion: v1\nkind: ConfigMap\nbinaryData:\n  one: ""', '6mtk2m274t'],
    ['data and binaryData', 'apiVersion: v1\nkind: ConfigMap\ndata:\n  one: ""\nbinaryData:\n  two: ""', '698h7c7t9m'],
    ['empty Secret', 'apiVersion: v1\nkind: Secret\ntype: my-type', '5gmgkf8578'],
    ['Secret with one key', 'apiVersion: v1\nkind: Secret\ntype: my-type\ndata:\n  one: ""', '74bd68bm66'],
    [
      'Secret with stringData',
      'apiVersion: v1\nkind: Secret\ntype: my-type\ndata:\n  one: ""\nstringData:\n  two: 2',
      'c4h4264gdb',
    ],
  ])('%s hashes to %s', (_name, text, expected) => {
    expect(hashOf(text)).toBe(expected);
  });

  it('changes when the data changes', () => {
    expect(hashOf('apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "1"')).not.toBe(
      hashOf('apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "2"'),
    );
  });
});
