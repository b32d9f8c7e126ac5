// Builds a GitOps repository from the guestbook fixture and snapshots of its cluster as an API
// server returns them after the applier applied Git, then changed by people (kubectl scale/edit).
import { renderManifests } from '../../src/core/manifests/index.js';
import type { KubeObject, ManagedFieldsEntry } from '../../src/core/model/index.js';
import { readFixtureTree } from '../support/fixtures.js';
import { appliedLive } from '../cli/live-builder.js';

export const CLUSTER = 'prod-eu';
export const CLUSTER_PATH = 'clusters/prod-eu';

export function configText(extra = ''): string {
  return `clusters:\n  - name: ${CLUSTER}\n    path: ${CLUSTER_PATH}\n    defaultNamespace: shop\ndrift:\n  minSnapshots: 1\n${extra}`;
}

/** The guestbook Deployments and Services under the cluster path, plus the config. */
export function gitopsRepository(config = configText()): Record<string, string> {
  const files: Record<string, string> = { '.github/driftback.yml': config, 'README.md': '# platform\n' };
  for (const [path, text] of readFixtureTree('manifests', 'kubernetes-examples', 'web', 'guestbook')) {
    if (!path.includes('/')) files[`${CLUSTER_PATH}/${path}`] = text;
  }
  return files;
}

/** Live objects as the applier left them: Git's content plus server metadata and managedFields. */
export function appliedObjects(files: Record<string, string>, root = CLUSTER_PATH): KubeObject[] {
  const rendered = renderManifests(new Map(Object.entries(files)), root, { defaultNamespace: 'shop' });
  if (rendered.errors.length > 0) throw new Error(rendered.errors.map((error) => error.message).join('; '));
  return rendered.objects.map(appliedLive);
}

function touch(live: KubeObject, manager: string, time: string, fieldsV1: Record<string, unknown>): void {
  const entry: ManagedFieldsEntry = {
    manager,
    operation: 'Update',
    apiVersion: live.apiVersion,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1,
  };
  live.metadata.managedFields = [...(live.metadata.managedFields ?? []), entry];
}

function find(items: KubeObject[], kind: string, name: string): KubeObject & { spec: Record<string, any> } {
  const found = items.find((item) => item.kind === kind && item.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name}`);
  return found as KubeObject & { spec: Record<string, any> };
}

/** `kubectl scale deployment/<name> --replicas=<n>`. */
export function scaled(
  items: KubeObject[],
  name: string,
  replicas: number,
  time = '2026-12-02T03:02:11Z',
): KubeObject[] {
  const copy = structuredClone(items);
  const deployment = find(copy, 'Deployment', name);
  deployment.spec.replicas = replicas;
  touch(deployment, 'kubectl-scale', time, { 'f:spec': { 'f:replicas': {} } });
  return copy;
}

/** `kubectl edit` adding an env var to the first container. */
export function withEnv(
  items: KubeObject[],
  name: string,
  env: { name: string; value: string },
  time = '2026-12-02T03:10:00Z',
): KubeObject[] {
  const copy = structuredClone(items);
  const deployment = find(copy, 'Deployment', name);
  const container = deployment.spec.template.spec.containers[0];
  container.env = [...(container.env ?? []), env];
  touch(deployment, 'kubectl-edit', time, {
    'f:spec': {
      'f:template': {
        'f:spec': {
          'f:containers': {
            [`k:{"name":"${container.name}"}`]: {
              'f:env': { [`k:{"name":"${env.name}"}`]: { '.': {}, 'f:name': {}, 'f:value': {} } },
            },
          },
        },
      },
    },
  });
  return copy;
}

export function snapshotOf(repository: string, items: KubeObject[], capturedAt: string, cluster = CLUSTER) {
  return {
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository,
    cluster,
    capturedAt,
    agent: { version: '0.1.0' },
    server: { gitVersion: 'v1.31.2' },
    scope: { complete: true, errors: [] },
    items,
  };
}

/** A repository of `count` small Deployments (one file each) under the cluster path. */
export function manyDeployments(count: number): Record<string, string> {
  const files: Record<string, string> = { '.github/driftback.yml': configText() };
  for (let index = 0; index < count; index++) {
    const name = `app-${String(index).padStart(3, '0')}`;
    files[`${CLUSTER_PATH}/${name}.yaml`] = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${name}`,
      'spec:',
      '  replicas: 1',
      '  selector:',
      '    matchLabels:',
      `      app: ${name}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app: ${name}`,
      '    spec:',
      '      containers:',
      '        - name: app',
      '          image: nginx:1.27',
      '',
    ].join('\n');
  }
  return files;
}

/** The first `count` Deployments scaled to `replicas` by kubectl. */
export function scaledMany(items: KubeObject[], count: number, replicas: number): KubeObject[] {
  let result = items;
  for (let index = 0; index < count; index++)
    result = scaled(result, `app-${String(index).padStart(3, '0')}`, replicas);
  return result;
}
