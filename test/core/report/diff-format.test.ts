// The output formats on a hand-made drift result: the JSON document's exact shape, the text diff
// showing only drifted fields with their manager, and colors only on a terminal.
import { describe, expect, it } from 'vitest';
import type { DesiredObject, DiffResult, KubeObject, ResourceDiff } from '../../../src/core/model/index.js';
import { diffToJson, paletteFor, renderDiffText } from '../../../src/core/report/index.js';
import { liveViewOf } from '../../../src/core/report/live-view.js';

const desiredObject: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'checkout' },
  spec: {
    replicas: 3,
    template: { spec: { containers: [{ name: 'api', image: 'api:1.2', env: [{ name: 'A', value: '1' }] }] } },
  },
};
const key = { group: 'apps', kind: 'Deployment', namespace: 'checkout', name: 'api' };
const desired: DesiredObject = {
  key,
  object: desiredObject,
  source: {
    file: 'apps/api.yaml',
    document: 0,
    location: { file: 'apps/api.yaml', document: 0, range: [0, 10], line: 1, column: 1 },
    kustomizations: [],
    sourceName: 'api',
    fields: {},
  },
};
const live: KubeObject = {
  ...desiredObject,
  metadata: { ...desiredObject.metadata, uid: 'u1' },
  status: { replicas: 8 },
};
const containers = ['spec', 'template', 'spec', 'containers'];

const modified: ResourceDiff = {
  key,
  status: 'modified',
  desired,
  live,
  health: { status: 'Healthy' },
  changes: [
    {
      path: '/spec/replicas',
      segments: ['spec', 'replicas'],
      op: 'replace',
      desired: 3,
      live: 8,
      manager: 'kubectl-scale',
      time: '2026-12-02T03:02:11Z',
      cause: 'human',
    },
    {
      path: '/spec/template/spec/containers/0/env/1',
      segments: [...containers, { key: { name: 'api' } }, 'env', { key: { name: 'DEBUG' } }],
      op: 'add',
      live: { name: 'DEBUG', value: 'true' },
      manager: 'kubectl-edit',
      cause: 'human',
    },
  ],
  ignored: [
    {
      path: '/metadata/annotations/x',
      segments: ['metadata', 'annotations', 'x'],
      op: 'add',
      live: 'y',
      cause: 'controller',
      ignored: { reason: 'set by a webhook' },
    },
  ],
  conflicts: [],
};
const extra: ResourceDiff = {
  key: { group: '', kind: 'ConfigMap', namespace: 'checkout', name: 'hand-made' },
  status: 'extra',
  live: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'hand-made', namespace: 'checkout', uid: 'u2', resourceVersion: '7', managedFields: [] },
    data: { a: '1' },
  },
  health: { status: 'Healthy' },
  createdBy: { manager: 'kubectl-create', cause: 'human' },
  changes: [],
  ignored: [],
  conflicts: [],
};
const inSync: ResourceDiff = {
  key: { ...key, name: 'web' },
  status: 'in-sync',
  changes: [],
  ignored: [],
  conflicts: [],
  live,
  health: { status: 'Healthy' },
};
const result: DiffResult = {
  resources: [modified, extra, inSync],
  summary: { inSync: 1, modified: 1, missing: 0, extra: 1, ignored: 1, conflicts: 0 },
  unlisted: [],
};

describe('json format', () => {
  it('is the documented document: non-in-sync resources, counted changes, health, five summary counts', () => {
    expect(JSON.parse(JSON.stringify(diffToJson(result)))).toEqual({
      resources: [
        {
          id: key,
          status: 'modified',
          changes: [
            {
              path: '/spec/replicas',
              desired: 3,
              live: 8,
              op: 'replace',
              manager: 'kubectl-scale',
              time: '2026-12-02T03:02:11Z',
              cause: 'human',
            },
            {
              path: '/spec/template/spec/containers/0/env/1',
              live: { name: 'DEBUG', value: 'true' },
              op: 'add',
              manager: 'kubectl-edit',
              cause: 'human',
            },
          ],
          health: { status: 'Healthy' },
        },
        { id: extra.key, status: 'extra', changes: [], health: { status: 'Healthy' } },
      ],
      summary: { inSync: 1, modified: 1, missing: 0, extra: 1, ignored: 1 },
    });
  });
});

describe('live view', () => {
  it('puts live values in place by merge key, leaving desired untouched', () => {
    const view = liveViewOf(desiredObject as Record<string, unknown>, modified.changes) as any;
    expect(view.spec.replicas).toBe(8);
    expect(view.spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'DEBUG', value: 'true' },
    ]);
    expect((desiredObject as any).spec.replicas).toBe(3);
  });

  it('deletes a field live no longer has', () => {
    const view = liveViewOf(desiredObject as Record<string, unknown>, [
      { path: '/spec/replicas', segments: ['spec', 'replicas'], op: 'replace', desired: 3, cause: 'unknown' },
    ]) as any;
    expect(view.spec).not.toHaveProperty('replicas');
  });
});

describe('text format', () => {
  const text = renderDiffText(result);

  it('shows each drifted field as a diff line with its manager and time', () => {
    expect(text).toContain('-  replicas: 3\n');
    expect(text).toContain('+  replicas: 8 # set by kubectl-scale at 2026-12-02 03:02 UTC (human)\n');
    expect(text).toMatch(/\+ {12}- name: DEBUG/);
    expect(text).toContain('--- desired apps/api.yaml:1');
  });

  it('leaves out noise and in-sync resources, and shows who made an extra object', () => {
    expect(text).not.toContain('uid');
    expect(text).not.toContain('status:');
    expect(text).not.toContain('Deployment/checkout/web');
    expect(text).toContain(
      '+ ConfigMap/checkout/hand-made  extra  in the cluster, not in Git  created by kubectl-create (human)',
    );
    expect(text).toContain('+data:\n+  a: "1"');
    expect(text).not.toContain('resourceVersion');
  });

  it('says why ignored fields are ignored and ends with the summary', () => {
    expect(text).toContain('ignored: metadata.annotations.x (set by a webhook)');
    expect(text.trimEnd().split('\n').pop()).toBe('1 in sync, 1 modified, 0 missing, 1 extra, 1 ignored');
  });

  it('is colored on a terminal, unless NO_COLOR is set, and never in a pipe', () => {
    expect(renderDiffText(result, paletteFor({ isTTY: true }, {}))).toContain('\u001b[32m+  replicas: 8');
    expect(renderDiffText(result, paletteFor({ isTTY: true }, { NO_COLOR: '1' }))).not.toContain('\u001b[');
    expect(renderDiffText(result, paletteFor({ isTTY: false }, {}))).not.toContain('\u001b[');
  });
});
