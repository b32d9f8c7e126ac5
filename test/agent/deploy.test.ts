// The deploy/agent kustomization: it parses, grants only get/list (Secrets only through the
// optional component), the CronJob is locked down as documented, and no secret is inlined.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { listableResources } from '../../src/agent/discovery.js';
import { selectResources } from '../../src/agent/resource-filter.js';
import { isSecret } from '../../src/core/k8s/index.js';
import { REPO_ROOT } from '../support/fixtures.js';
import { loadDiscovery } from '../support/kube-api/server.js';
import { scope } from './helpers.js';

const BASE = join(REPO_ROOT, 'deploy', 'agent');
const SECRETS_COMPONENT = join(BASE, 'components', 'secrets');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

/** Renders with `kubectl kustomize` when it is installed; otherwise reads the listed files as they are. */
function render(withSecrets: boolean): any[] {
  if (hasKubectl) {
    const overlay = mkdtempSync(join(tmpdir(), 'driftback-overlay-'));
    const base = relative(overlay, BASE);
    writeFileSync(
      join(overlay, 'kustomization.yaml'),
      `resources: [${base}]\n${withSecrets ? `components: [${base}/components/secrets]\n` : ''}`,
    );
    const result = spawnSync('kubectl', ['kustomize', overlay], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return parseAllDocuments(result.stdout).map((doc) => doc.toJS());
  }
  const read = (dir: string) =>
    (parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')).resources as string[]).flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => doc.toJS()),
    );
  const objects = [...read(BASE), ...(withSecrets ? read(SECRETS_COMPONENT) : [])];
  if (withSecrets) {
    // The component's strategic-merge patch, for the lists it touches (merged by name).
    const patch = parse(readFileSync(join(SECRETS_COMPONENT, 'cronjob-patch.yaml'), 'utf8')).spec.jobTemplate.spec
      .template.spec;
    const pod = find(objects, 'CronJob')[0].spec.jobTemplate.spec.template.spec;
    const container = pod.containers[0];
    container.env = [...container.env, ...patch.containers[0].env];
    container.volumeMounts = [...container.volumeMounts, ...patch.containers[0].volumeMounts];
    pod.volumes = [...pod.volumes, ...patch.volumes];
  }
  return objects;
}

const find = (objects: any[], kind: string, name?: string) =>
  objects.filter((o) => o.kind === kind && (!name || o.metadata.name === name));

describe('deploy/agent', () => {
  const base = render(false);
  const withSecrets = render(true);

  it('holds the expected objects', () => {
    const kinds = base.map((o) => o.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'Namespace',
        'ServiceAccount',
        'ClusterRole',
        'ClusterRoleBinding',
        'CronJob',
        'NetworkPolicy',
      ]),
    );
    expect(kinds).not.toContain('Secret');
  });

  it.each([
    { name: 'base', objects: () => base },
    { name: 'with the secrets component', objects: () => withSecrets },
  ])('grants only get and list ($name)', ({ objects }) => {
    for (const role of [...find(objects(), 'ClusterRole'), ...find(objects(), 'Role')]) {
      for (const rule of role.rules) expect(['get', 'list']).toEqual(expect.arrayContaining(rule.verbs));
    }
  });

  it('grants Secrets only through the optional component', () => {
    const [role] = find(base, 'ClusterRole', 'driftback-agent');
    for (const rule of role.rules.filter((r: any) => r.apiGroups)) {
      expect(rule.apiGroups).not.toContain('*');
      if (rule.apiGroups.includes(''))
        expect(rule.resources).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(\*|secrets)$/)]));
    }
    const [secretsRole] = find(withSecrets, 'ClusterRole', 'driftback-agent-secrets');
    expect(secretsRole.rules).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]);
  });

  it('grants every type the agent lists by default (Secrets aside)', () => {
    const discovery = loadDiscovery();
    const resources = [...discovery.lists.entries()].flatMap(([gv, doc]) => {
      const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
      return listableResources(doc, group, version);
    });
    const [role] = find(base, 'ClusterRole', 'driftback-agent');
    const granted = (group: string, resource: string) =>
      role.rules.some(
        (r: any) => r.apiGroups?.includes(group) && (r.resources.includes('*') || r.resources.includes(resource)),
      );
    const missing = selectResources(resources, scope()).filter((r) => !isSecret(r) && !granted(r.group, r.resource));
    expect(missing.map((r) => `${r.groupVersion}/${r.resource}`)).toEqual([]);
  });

  it('runs the CronJob one at a time, bounded, non-root, read-only, without capabilities', () => {
    const [cronJob] = find(base, 'CronJob');
    expect(cronJob.spec).toMatchObject({
      concurrencyPolicy: 'Forbid',
      startingDeadlineSeconds: expect.any(Number),
      successfulJobsHistoryLimit: expect.any(Number),
      failedJobsHistoryLimit: expect.any(Number),
    });
    expect(cronJob.spec.jobTemplate.spec.activeDeadlineSeconds).toBeGreaterThan(0);
    const pod = cronJob.spec.jobTemplate.spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.automountServiceAccountToken).toBe(true);
    const [container] = pod.containers;
    expect(container.command).toEqual(['node', 'bin/driftback.js', 'agent']);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits).toMatchObject({ memory: expect.any(String) });
    const [serviceAccount] = find(base, 'ServiceAccount');
    expect(serviceAccount.automountServiceAccountToken).toBe(false);
  });

  it('references the token and the hash key from Secrets, never inline', () => {
    const pod = (objects: any[]) => find(objects, 'CronJob')[0].spec.jobTemplate.spec.template.spec;
    const env = (objects: any[]) => pod(objects).containers[0].env as any[];
    expect(env(base).find((e) => e.name === 'DRIFTBACK_TOKEN')).toEqual({
      name: 'DRIFTBACK_TOKEN',
      valueFrom: { secretKeyRef: { name: 'driftback-token', key: 'token' } },
    });
    expect(env(withSecrets).find((e) => e.name === 'DRIFTBACK_SECRETS')?.value).toBe('hash');
    expect(pod(withSecrets).volumes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ secret: expect.objectContaining({ secretName: 'driftback-hash-key' }) }),
      ]),
    );
    for (const objects of [base, withSecrets]) {
      expect(find(objects, 'Secret')).toEqual([]);
      const text = JSON.stringify(objects);
      expect(text).not.toMatch(/dbk_[A-Za-z0-9_-]{10,}/);
      expect(text).not.toMatch(/DRIFTBACK_(TOKEN|HASH_KEY)":"[^"]/);
    }
  });

  it('allows no ingress and egress only to DNS, the API server and the App', () => {
    const [policy] = find(base, 'NetworkPolicy');
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.spec.ingress ?? []).toEqual([]);
    const ports = policy.spec.egress.map((rule: any) =>
      rule.ports.map((p: any) => `${p.protocol}/${p.port}`).join(','),
    );
    expect(ports).toEqual(['UDP/53,TCP/53', 'TCP/443,TCP/6443', 'TCP/443']);
    expect(policy.spec.egress.every((rule: any) => rule.to?.length > 0)).toBe(true);
  });
});
