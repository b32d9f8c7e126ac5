// The deploy/app kustomizations, rendered with driftback's own renderer: they parse, the App is
// probed on /ping, runs locked down as non-root, keeps SQLite on a PVC with one replica, scales
// out on PostgreSQL without the PVC, and never inlines a secret.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../src/core/manifests/index.js';
import type { KubeObject } from '../../src/core/model/index.js';
import { REPO_ROOT } from '../support/fixtures.js';

function readTree(dir: string, files = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) readTree(path, files);
    else files.set(relative(REPO_ROOT, path), readFileSync(path, 'utf8'));
  }
  return files;
}

const FILES = readTree(join(REPO_ROOT, 'deploy', 'app'));

function render(root: string): KubeObject[] {
  const result = renderManifests(FILES, root);
  expect(result.errors).toEqual([]);
  return result.objects.map((desired) => desired.object);
}

const one = (objects: KubeObject[], kind: string): any => {
  const found = objects.filter((o) => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
};

const SECRET_LIKE = /KEY|SECRET|TOKEN|PASSWORD|DATABASE_URL/i;

describe.each([
  { overlay: 'deploy/app/base', replicas: 1, pvc: true },
  { overlay: 'deploy/app/postgres', replicas: 3, pvc: false },
])('$overlay', ({ overlay, replicas, pvc }) => {
  const objects = render(overlay);
  const deployment = one(objects, 'Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers.find((c: any) => c.name === 'driftback');

  it('holds a Deployment and a Service in the driftback namespace, and no Secret', () => {
    expect(objects.map((o) => o.kind)).toEqual(expect.arrayContaining(['Namespace', 'Deployment', 'Service']));
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    for (const object of objects.filter((o) => o.kind !== 'Namespace'))
      expect(object.metadata.namespace).toBe('driftback');
    expect(one(objects, 'Service').spec.selector).toEqual(deployment.spec.selector.matchLabels);
  });

  it('probes /ping on the http port', () => {
    const port = container.ports.find((p: any) => p.name === 'http');
    expect(port).toBeDefined();
    for (const probe of [container.readinessProbe, container.livenessProbe])
      expect(probe.httpGet).toEqual({ path: '/ping', port: 'http' });
  });

  it('runs as non-root with a read-only root file system, no privilege escalation, every capability dropped', () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.env.find((e: any) => e.name === 'HOST')?.value).toBe('0.0.0.0');
  });

  it('takes credentials from a Secret reference, never inline', () => {
    expect(container.envFrom).toContainEqual({ secretRef: { name: 'driftback-app' } });
    for (const env of container.env) if (SECRET_LIKE.test(env.name)) expect(env.value).toBeUndefined();
  });

  it(`runs ${replicas} replica(s)${pvc ? ' with SQLite on a PersistentVolumeClaim' : ' without the SQLite volume'}`, () => {
    expect(deployment.spec.replicas).toBe(replicas);
    const claims = pod.volumes
      .filter((v: any) => v.persistentVolumeClaim)
      .map((v: any) => v.persistentVolumeClaim.claimName);
    if (pvc) {
      // Two pods writing one SQLite file would corrupt it: the old pod stops before the new starts.
      expect(deployment.spec.strategy.type).toBe('Recreate');
      expect(claims).toEqual([one(objects, 'PersistentVolumeClaim').metadata.name]);
      expect(container.volumeMounts.find((m: any) => m.name === 'data')?.mountPath).toBe(
        container.env.find((e: any) => e.name === 'DATA_DIR')?.value,
      );
    } else {
      expect(claims).toEqual([]);
      expect(objects.filter((o) => o.kind === 'PersistentVolumeClaim')).toEqual([]);
    }
  });
});
