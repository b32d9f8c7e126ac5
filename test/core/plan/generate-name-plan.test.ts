// A manifest with generateName and no name in a plan: Argo CD creates it anew at every sync (gitops-engine
// sync_context: a target without a name is created, `kubectl create`, never applied), so the plan lists it
// as "created on every sync", never as a create of one object, and the Jobs it made — stamped with the
// Application's tracking id, named the prefix and five characters of apiserver's SimpleNameGenerator
// alphabet — are never pruned. A stamped Job of another name is still pruned: the rule is the manifest's.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { configSchema } from '../../../src/core/config/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { planCluster } from '../../../src/core/pipeline/index.js';
import { renderCluster } from '../../../src/core/render/index.js';
import { planToJson, renderPlanComment, renderPlanText } from '../../../src/core/report/index.js';
import { argoApplication } from '../../support/argo-application.js';

const application = argoApplication('shop', { spec: { syncPolicy: { automated: { prune: true } } } });

const MIGRATE =
  'apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: db-migrate-\nspec:\n  template:\n    spec:\n      containers:\n        - name: migrate\n          image: flyway/flyway:10\n      restartPolicy: Never\n';

function job(name: string, generateName?: string): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'shop',
      ...(generateName ? { generateName } : {}),
      annotations: { 'argocd.argoproj.io/tracking-id': `shop:batch/Job:shop/${name}` },
    },
    spec: {
      template: { spec: { containers: [{ name: 'migrate', image: 'flyway/flyway:10' }], restartPolicy: 'Never' } },
    },
  };
}

/** The live Application, with the Jobs it synced in its status (Argo CD's inventory: what it prunes). */
function synced(...names: string[]): KubeObject {
  const resources = names.map((name) => ({ group: 'batch', version: 'v1', kind: 'Job', namespace: 'shop', name }));
  return { ...application, status: { resources } };
}

const namespace: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };

const HOOK = MIGRATE.replace(
  'generateName: db-migrate-\n',
  'generateName: db-migrate-\n  annotations:\n    argocd.argoproj.io/hook: Sync\n    argocd.argoproj.io/sync-wave: "2"\n',
);

function plan(items: KubeObject[], migrate = MIGRATE) {
  const files = new Map([
    ['apps/shop.yaml', stringify(application)],
    ['shop/migrate.yaml', migrate],
  ]);
  const snapshot = { repository: 'acme/gitops', cluster: 'prod', capturedAt: '2026-12-07T05:00:00Z', items };
  const cluster = { name: 'prod', path: 'apps', controller: 'argocd' as const, defaultNamespace: 'default' };
  const head = renderCluster(files, cluster, { live: snapshot });
  expect(head.errors).toEqual([]);
  const config = configSchema.parse({});
  return planCluster({
    config,
    head: head.objects,
    headFiles: files,
    snapshot,
    now: snapshot.capturedAt,
    sources: head,
  });
}

describe('generateName manifests in a plan', () => {
  it('lists the manifest as created on every sync and never prunes the Jobs it made', () => {
    const made = job('db-migrate-x7k2p', 'db-migrate-');
    const result = plan([synced('db-migrate-x7k2p', 'old-report'), namespace, made, job('old-report')]);
    expect(result.prune.map((entry) => entry.id.name)).toEqual(['old-report']);
    expect(result.create.map((entry) => entry.id.kind)).not.toContain('Job');
    expect(result.generated).toEqual([
      expect.objectContaining({ file: 'shop/migrate.yaml', made: ['Job/shop/db-migrate-x7k2p'] }),
    ]);
    const text = renderPlanText('prod', result);
    expect(text).toContain('Created on every sync (generateName; never compared, never pruned):');
    expect(text).toContain('  + Job/shop/db-migrate-*: shop/migrate.yaml; kept: Job/shop/db-migrate-x7k2p');
    expect(planToJson(result).generated).toEqual([
      { resource: 'Job/shop/db-migrate-*', file: 'shop/migrate.yaml', made: ['Job/shop/db-migrate-x7k2p'] },
    ]);
    expect(renderPlanComment([{ cluster: 'prod', plan: result }])).toContain(
      'Created on every sync (generateName; never compared, never pruned): `Job/shop/db-migrate-*` (`shop/migrate.yaml`; kept: `Job/shop/db-migrate-x7k2p`)',
    );
  });

  it('lists it before any run, and prunes a Job whose name is not the prefix and a generated suffix', () => {
    const result = plan([synced('db-migrate-manual'), namespace, job('db-migrate-manual', 'db-migrate-')]);
    expect(result.prune.map((entry) => entry.id.name)).toEqual(['db-migrate-manual']);
    expect(result.generated).toEqual([expect.objectContaining({ file: 'shop/migrate.yaml' })]);
    expect(result.generated?.[0]?.made).toBeUndefined();
  });

  it("lists a hook's generateName manifest with the hooks, in the destination namespace, and prunes nothing it made", () => {
    const made = job('db-migrate-x7k2p', 'db-migrate-');
    const result = plan([synced('db-migrate-x7k2p'), namespace, made], HOOK);
    expect(result.prune).toEqual([]);
    expect(result.generated).toEqual([]);
    expect(result.hooks).toEqual([
      expect.objectContaining({
        id: { group: 'batch', kind: 'Job', namespace: 'shop', name: 'db-migrate-*' },
        file: 'shop/migrate.yaml',
      }),
    ]);
    const text = renderPlanText('prod', result);
    expect(text).not.toContain('Created on every sync');
    expect(text).toContain('Hooks (run at each sync, not desired state):');
    expect(text).toContain('  > Job/shop/db-migrate-*: Argo CD Sync hook: Sync, wave 2; deleted: BeforeHookCreation');
  });
});
