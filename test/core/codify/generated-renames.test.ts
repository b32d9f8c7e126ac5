// A values edit under a kustomize configMapGenerator with the content hash on renames the ConfigMap and the
// references follow it (nameReference): the check counts that rename as the edit, and nothing else.
import { describe, expect, it } from 'vitest';
import { checkValueEdit } from '../../../src/core/codify/self-check.js';
import type { DiffResult, PathSegment } from '../../../src/core/model/index.js';
import { configWith, diff, liveAfterHandEdit, render } from './support.js';

const kustomization = [
  'resources: [deployment.yaml]',
  'configMapGenerator:',
  '  - name: app-config',
  '    files: [app.properties, limits.properties]',
  '',
].join('\n');
const deployment = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: app, namespace: default}',
  'spec:',
  '  replicas: 1',
  '  selector: {matchLabels: {app: app}}',
  '  template:',
  '    metadata: {labels: {app: app}}',
  '    spec:',
  '      containers: [{name: app, image: app:1.0}]',
  '      volumes:',
  '        - name: config',
  '          configMap: {name: app-config}',
  '',
].join('\n');
const files = new Map([
  ['app/kustomization.yaml', kustomization],
  ['app/deployment.yaml', deployment],
  ['app/app.properties', 'threads=2\n'],
  ['app/limits.properties', 'max=10\n'],
]);
const config = configWith();
const live = render(files, 'app').map((d) => liveAfterHandEdit(d.object, []));
const before = diff(render(files, 'app'), live, config);
const oldConfigMap = before.resources.find((r) => r.key.kind === 'ConfigMap')!.key;
const HELD: PathSegment[] = ['data', 'app.properties'];
const holder = { key: oldConfigMap, segments: HELD };
const target = 'apps/Deployment/default/app|["spec","replicas"]|replace';

function after(edits: Record<string, string>): DiffResult {
  return diff(
    render(new Map([...files, ...Object.entries(edits).map(([p, t]) => [`app/${p}`, t] as const)]), 'app'),
    live,
    config,
  );
}

describe('a hashed generated ConfigMap renamed by the edit', () => {
  it('the new ConfigMap, the old one and the reference that follows count as the edit', () => {
    const result = after({ 'app.properties': 'threads=4\n' });
    expect(result.resources.map((r) => r.status).sort()).toEqual(['extra', 'missing', 'modified']);
    expect(checkValueEdit(before, result, target, new Set(), holder)).toEqual({ ok: true });
  });

  it('a change of the ConfigMap outside the edited values is still reported', () => {
    const result = after({ 'app.properties': 'threads=4\n', 'limits.properties': 'max=20\n' });
    const check = checkValueEdit(before, result, target, new Set(), holder);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toMatch(
      /^would also change extra \/ConfigMap\/default\/app-config-\w+, missing/,
    );
  });

  it('without the held values the rename is a change like any other', () => {
    const check = checkValueEdit(before, after({ 'app.properties': 'threads=4\n' }), target, new Set());
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toContain('/spec/template/spec/volumes');
  });
});
