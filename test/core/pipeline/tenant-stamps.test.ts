// Tenant-scoped clusters: the agent may list only the application's namespaces, so the Flux Kustomization or
// Argo CD Application that applied them (and argocd-cm) is not in the snapshot. The stamps those controllers
// wrote (kustomize-controller's `kustomize.toolkit.fluxcd.io/name|namespace` labels, Argo CD's tracking label or
// `argocd.argoproj.io/tracking-id` annotation — see test/fixtures/controllers/README.md for the upstream files)
// are read from the live objects themselves: never drift, and no "the next apply removes it" for a source the
// snapshot does not show. The tenant repository is what the controller applied, stamps left out, as plain files.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfig } from '../../../src/core/config/index.js';
import { evaluateDrift, planCluster, renderCluster } from '../../../src/core/pipeline/index.js';
import { displayKey, isPlainObject, keyId, type KubeObject } from '../../../src/core/model/index.js';
import { readArgoSettings, stampsFor, type SourceRef } from '../../../src/core/sources/index.js';
import { scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';

interface Tenant {
  files: Map<string, string>;
  items: KubeObject[];
  namespaces: string[];
  source: SourceRef;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** One source of a scenario as a tenant sees it: its objects as plain files (no stamps), its namespaces' objects. */
function tenantOf(scenario: string, snapshotName: string, sourceName: string): Tenant {
  const files = scenarioRepository(scenario);
  const snapshot = scenarioSnapshot(scenario, snapshotName);
  const config = parseConfig(files.get('.github/driftback.yml')!);
  if (!config.ok) throw new Error('config');
  const cluster = config.config.clusters![0]!;
  const full = renderCluster(files, cluster, { live: snapshot });
  const result = full.sources.find((r) => `${r.source.id.namespace}/${r.source.id.name}` === sourceName)!;
  const ids = new Set(result.objects.map(keyId));
  const tracking = readArgoSettings(snapshot.items);
  const tenantFiles = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const desired of full.objects.filter((d) => ids.has(keyId(d.key)))) {
    const object = clone(desired.object);
    const destination = result.source.transforms.controller === 'argocd' ? result.source.transforms.destination : {};
    for (const stamp of stampsFor(result.source.id, desired.key, tracking, destination.namespace)) {
      const map = object.metadata?.[stamp.map];
      if (isPlainObject(map)) delete map[stamp.key];
    }
    // A value Flux substituted from a Secret is shown masked in desired: the tenant's copy leaves it out.
    for (const pointer of Object.keys(desired.source.secretFields ?? {})) {
      const segments = pointer.split('/').slice(1);
      const parent = segments
        .slice(0, -1)
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], object);
      delete (parent as Record<string, unknown>)[segments.at(-1)!];
    }
    tenantFiles.set(`tenant/${desired.key.kind}-${desired.key.namespace}-${desired.key.name}.yaml`, stringify(object));
    namespaces.add(desired.key.kind === 'Namespace' ? desired.key.name : desired.key.namespace);
  }
  namespaces.delete('');
  const inTenant = (o: KubeObject): boolean =>
    namespaces.has(o.metadata.namespace ?? '') || (o.kind === 'Namespace' && namespaces.has(o.metadata.name ?? ''));
  return {
    files: tenantFiles,
    items: snapshot.items.filter(inTenant),
    namespaces: [...namespaces],
    source: result.source.id,
  };
}

function evaluateTenant(tenant: Tenant, controller: 'flux' | 'argocd') {
  const parsed = parseConfig(
    `clusters:\n  - name: tenant\n    path: tenant\n    controller: ${controller}\n    namespaces: [${tenant.namespaces.join(', ')}]\n`,
  );
  if (!parsed.ok) throw new Error('config');
  const snapshot = {
    apiVersion: 'driftback.dev/v1' as const,
    kind: 'Snapshot' as const,
    repository: 'acme/tenant',
    cluster: 'tenant',
    capturedAt: '2026-12-01T12:05:00Z',
    scope: { namespaces: tenant.namespaces, complete: true, errors: [] },
    items: tenant.items,
  };
  const evaluation = evaluateDrift({
    snapshot,
    config: parsed.config,
    cluster: parsed.config.clusters![0]!,
    files: tenant.files,
    history: [],
    minSnapshots: 1,
    declined: new Set(),
  });
  if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
  return evaluation;
}

const STAMP_PATH =
  /^\/metadata\/(labels|annotations)\/(kustomize\.toolkit\.fluxcd\.io|app\.kubernetes\.io~1instance|argocd\.argoproj\.io~1tracking-id)/;

describe('stamps on a tenant-scoped snapshot without the controller objects', () => {
  it.each([
    ['flux-podinfo', 'unchanged', 'flux-system/apps', 'flux', []],
    ['argocd-csa-label', 'unchanged', 'argocd/guestbook', 'argocd', []],
    ['argocd-ssa-annotation', 'unchanged', 'argocd/online-boutique', 'argocd', []],
    // `kubectl scale` set frontend's replicas, which the Application's ignoreDifferences (out of view) hides.
    [
      'argocd-ssa-annotation',
      'annotation-label',
      'argocd/online-boutique',
      'argocd',
      ['Deployment/boutique/frontend /spec/replicas'],
    ],
  ] as const)(
    '%s/%s: %s applied it, out of view: no drift from stamps',
    (scenario, snapshot, source, controller, expected) => {
      const tenant = tenantOf(scenario, snapshot, source);
      // The controller objects and argocd-cm are not in the tenant's snapshot.
      expect(tenant.items.some((o) => o.kind === 'Kustomization' || o.kind === 'Application')).toBe(false);
      expect(tenant.items.some((o) => o.metadata.name === 'argocd-cm')).toBe(false);
      // The live objects do carry the stamps.
      expect(
        tenant.items.some((o) => JSON.stringify(o.metadata).match(/kustomize\.toolkit|instance|tracking-id/)),
      ).toBe(true);
      const evaluation = evaluateTenant(tenant, controller);
      const drift = evaluation.diff.resources.flatMap((r) =>
        r.status === 'modified' || r.status === 'in-sync'
          ? r.changes.map((c) => `${displayKey(r.key)} ${c.path}`)
          : [`${displayKey(r.key)} ${r.status}`],
      );
      expect(drift).toEqual(expected);
      const stampsReported = evaluation.diff.resources.flatMap((r) =>
        (r.reported ?? []).filter((c) => STAMP_PATH.test(c.path)),
      );
      expect(stampsReported).toEqual([]);
      expect(evaluation.diff.resources.filter((r) => r.status === 'in-sync').length).toBeGreaterThan(0);
      // The plan of the tenant's Git against the same snapshot updates no stamp either.
      const head = renderCluster(tenant.files, { defaultNamespace: 'default', path: 'tenant', controller }).objects;
      const planned = planCluster({
        config: evaluation.effectiveConfig,
        head,
        headFiles: tenant.files,
        now: '2026-12-01T12:06:00Z',
        snapshot: { items: tenant.items },
      });
      const stampUpdates = planned.update.flatMap((entry) => entry.changes.filter((c) => STAMP_PATH.test(c.path)));
      expect(stampUpdates).toEqual([]);
      expect(planned.create).toEqual([]);
    },
  );
});

describe('a field Git does not declare, applied by a source not in view', () => {
  it('says which source applied it, never that the next apply removes it', () => {
    const tenant = tenantOf('flux-podinfo', 'unchanged', 'flux-system/apps');
    // The tenant's Git lacks the Kustomization's commonMetadata label `team: web` (flux-podinfo apps.yaml).
    for (const [path, text] of tenant.files) tenant.files.set(path, text.replace(/^ {4}team: web\n/m, ''));
    const evaluation = evaluateTenant(tenant, 'flux');
    const team = evaluation.diff.resources.flatMap((r) =>
      [...r.changes, ...(r.reported ?? [])].filter((c) => c.path === '/metadata/labels/team').map((c) => ({ r, c })),
    );
    expect(team.length).toBeGreaterThan(0);
    for (const { r, c } of team) {
      expect(r.changes).not.toContain(c);
      expect(c.reported).toEqual({
        code: 'applier-not-in-view',
        reason:
          'applied by Flux Kustomization flux-system/apps, not in this snapshot: Git here does not declare it, ' +
          'and what that source applies is not known; to keep it, declare it in that source',
      });
    }
  });

  it('with the Kustomization in view, the same field is a removal its next apply makes', () => {
    const files = scenarioRepository('flux-podinfo');
    files.set(
      'clusters/kind-dev/apps.yaml',
      files.get('clusters/kind-dev/apps.yaml')!.replace(/^ {6}team: web\n/m, ''),
    );
    const parsed = parseConfig(files.get('.github/driftback.yml')!);
    if (!parsed.ok) throw new Error('config');
    const evaluation = evaluateDrift({
      snapshot: scenarioSnapshot('flux-podinfo', 'unchanged'),
      config: parsed.config,
      cluster: parsed.config.clusters![0]!,
      files,
      history: [],
      minSnapshots: 1,
      declined: new Set(),
    });
    if (evaluation.type !== 'evaluated') throw new Error('not evaluated');
    const removals = evaluation.diff.resources.flatMap((r) =>
      r.changes.filter((c) => c.path === '/metadata/labels/team'),
    );
    expect(removals.length).toBeGreaterThan(0);
    expect(removals.every((c) => c.op === 'remove' && c.manager === 'kustomize-controller')).toBe(true);
  });
});
