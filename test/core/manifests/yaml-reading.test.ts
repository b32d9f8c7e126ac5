// Numbers, strings and nulls read as kustomize's YAML reader (and the API server's) read them.
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../../src/core/manifests/index.js';

const one = (text: string) => {
  const result = renderManifests(new Map([['a.yaml', text]]), '', { defaultNamespace: null });
  expect(result.errors).toEqual([]);
  return result.objects[0].object as Record<string, any>;
};

describe('reading manifests as kustomize does', () => {
  it('reads a plain 0755 as octal (493), as YAML 1.1 readers do, but a quoted "0755" as a string', () => {
    const object = one(
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes:\n  - name: v\n    configMap:\n      name: c\n      defaultMode: 0755\n  x: "0755"\n  y: 755\n',
    );
    expect(object.spec.volumes[0].configMap.defaultMode).toBe(493);
    expect(object.spec.x).toBe('0755');
    expect(object.spec.y).toBe(755);
  });

  it('drops annotations: null and labels: null, and writes label and annotation values as the strings written', () => {
    const object = one(
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  labels: null\n  annotations:\n    port: 8080\n    happy: true\n    ratio: 1.50\n',
    );
    expect(object.metadata).toEqual({ name: 's', annotations: { port: '8080', happy: 'true', ratio: '1.50' } });
  });

  it('keeps no trailing newline in a block scalar that ends the file without one', () => {
    expect(
      one('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  run.sh: |\n    echo hi').data['run.sh'],
    ).toBe('echo hi');
    expect(
      one('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  run.sh: |\n    echo hi\n').data['run.sh'],
    ).toBe('echo hi\n');
  });
});
