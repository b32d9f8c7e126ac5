// The controller's next move on a person's change, through the drift pipeline on the controller
// scenarios (their managedFields are the API server's shapes: test/fixtures/controllers/_build). The
// rules are kustomize-controller's `apply` clean-up list and fluxcd/pkg ssa `matchFieldManager`
// (prefix `kubectl`, Update or Apply, no subresource; `ssa: Merge` skips the clean-up; `reconcile:
// disabled` skips the object), server-side apply with force, and Argo CD's automated sync / self-heal.
import { describe, expect, it } from 'vitest';
import { displayKey, type KubeObject, type NextMove, type Snapshot } from '../../../src/core/model/index.js';
import { goDurationSeconds } from '../../../src/core/ownership/index.js';
import { evaluateScenario, scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';

type Live = Snapshot & { items: KubeObject[] };

function evaluate(scenario: string, snapshot: Live, files?: Map<string, string>, minSnapshots = 1) {
  return evaluateScenario(scenario, snapshot, { ...(files ? { files } : {}), minSnapshots });
}

/** Every change of the whole diff with its next move: `Kind/ns/name path` → move. */
function moves(scenario: string, snapshot: Live, files?: Map<string, string>): Record<string, NextMove | undefined> {
  const out: Record<string, NextMove | undefined> = {};
  for (const resource of evaluate(scenario, snapshot, files).diff.resources)
    for (const change of [...resource.changes, ...(resource.reported ?? [])])
      out[`${displayKey(resource.key)} ${change.path}`] = change.next;
  return out;
}

function whats(scenario: string, snapshot: Live, files?: Map<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(moves(scenario, snapshot, files)).map(([k, v]) => [k, v?.what]));
}

function podinfo(edit?: (deployment: KubeObject, live: Live) => void): Live {
  const live = structuredClone(scenarioSnapshot('flux-podinfo', 'hand-changes')) as Live;
  const deployment = live.items.find((o) => o.kind === 'Deployment' && o.metadata?.name === 'podinfo')!;
  edit?.(deployment, live);
  return live;
}

const POD = 'Deployment/podinfo/podinfo';
const ENV = `${POD} /spec/template/spec/containers/0/env/3`;
const MEMORY = `${POD} /spec/template/spec/containers/0/resources/limits/memory`;

describe('Flux kustomize-controller', () => {
  it('undoes kubectl scale, edit and set image at its next reconcile: one interval after its last one', () => {
    const found = moves('flux-podinfo', podinfo());
    expect(Object.keys(found).sort()).toEqual(
      [`${POD} /spec/replicas`, ENV, MEMORY, `${POD} /spec/template/spec/containers/0/image`].sort(),
    );
    for (const move of Object.values(found)) {
      expect(move).toMatchObject({
        by: 'Flux Kustomization flux-system/apps',
        what: 'undo',
        // status.history[0].lastReconciled 12:03:41 + spec.interval 10m0s; the changes are at 12:05–12:08.
        when: '2026-12-01T12:13:41Z',
        suspend: 'flux suspend kustomization apps -n flux-system',
      });
      expect(move?.overdue).toBeUndefined();
    }
    expect(found[ENV]?.why).toContain("takes over kubectl-edit's fields and removes what Git does not declare");
    expect(found[MEMORY]?.why).toContain("applies Git's value again");
  });

  it('leaves a field Git lacks that a manager it does not take over wrote (k9s), and still reverts what Git declares', () => {
    const live = podinfo((deployment) => {
      for (const entry of deployment.metadata!.managedFields!)
        if (entry.manager === 'kubectl-edit') entry.manager = 'k9s';
    });
    const found = moves('flux-podinfo', live);
    expect(found[ENV]).toMatchObject({ what: 'keep' });
    expect(found[ENV]?.why).toContain('written by k9s, which Flux does not take over');
    expect(found[MEMORY]?.what).toBe('undo');
  });

  it('leaves a /scale write to a field Git does not declare (subresource entries are not taken over)', () => {
    const files = scenarioRepository('flux-podinfo');
    const path = 'apps/kind-dev/kustomization.yaml';
    files.set(path, files.get(path)!.replace(/^replicas:\n(?: .*\n)*/m, ''));
    const found = moves('flux-podinfo', podinfo(), files);
    expect(found[`${POD} /spec/replicas`]).toMatchObject({ what: 'keep' });
    expect(found[`${POD} /spec/replicas`]?.why).toContain('through the /scale subresource');
  });

  it('keeps fields Git lacks under `kustomize.toolkit.fluxcd.io/ssa: Merge`, and skips an object with `reconcile: disabled`', () => {
    const merge = podinfo(
      (d) => (d.metadata!.annotations = { ...d.metadata!.annotations, 'kustomize.toolkit.fluxcd.io/ssa': 'Merge' }),
    );
    expect(whats('flux-podinfo', merge)).toMatchObject({ [ENV]: 'keep', [MEMORY]: 'undo' });
    const disabled = podinfo(
      (d) => (d.metadata!.labels = { ...d.metadata!.labels, 'kustomize.toolkit.fluxcd.io/reconcile': 'disabled' }),
    );
    expect(new Set(Object.values(whats('flux-podinfo', disabled)))).toEqual(new Set(['keep']));
  });

  it('waits while the Kustomization is suspended', () => {
    const live = podinfo((_, snapshot) => {
      const apps = snapshot.items.find((o) => o.kind === 'Kustomization' && o.metadata?.name === 'apps')!;
      (apps.spec as Record<string, unknown>).suspend = true;
    });
    const found = moves('flux-podinfo', live);
    expect(found[MEMORY]).toMatchObject({ what: 'wait' });
    expect(found[MEMORY]?.why).toContain('is suspended: it undoes nothing until it is resumed');
  });

  it('says the controller is not reconciling when a change outlives its next reconcile', () => {
    const live = podinfo((_, snapshot) => (snapshot.capturedAt = '2026-12-01T13:30:00Z'));
    const move = moves('flux-podinfo', live)[MEMORY];
    expect(move).toMatchObject({ what: 'undo', overdue: true });
    expect(move?.why).toContain('is not reconciling (`flux get kustomization apps -n flux-system`)');
  });

  it('raises a change about to be undone on the first snapshot, whatever drift.minSnapshots says', () => {
    const evaluation = evaluate('flux-podinfo', podinfo(), undefined, 3);
    expect(evaluation.drift.resources.find((r) => displayKey(r.key) === POD)?.changes.length).toBe(4);
  });

  it('reads Go durations as Flux writes spec.interval', () => {
    expect([
      goDurationSeconds('10m0s'),
      goDurationSeconds('1h'),
      goDurationSeconds('1.5h'),
      goDurationSeconds('90s'),
    ]).toEqual([600, 3600, 5400, 90]);
    expect(goDurationSeconds('10 minutes')).toBeUndefined();
  });
});

describe('Argo CD', () => {
  const FRONTEND = 'Deployment/guestbook/frontend /spec/replicas';
  function guestbook(policy: string, annotate?: string): { live: Live; files: Map<string, string> } {
    const files = scenarioRepository('argocd-csa-label');
    const path = 'argocd/guestbook.yaml';
    files.set(path, files.get(path)!.replace('    automated:\n      prune: true\n', policy));
    const live = structuredClone(scenarioSnapshot('argocd-csa-label', 'hand-changes')) as Live;
    const app = live.items.find((o) => o.kind === 'Application' && o.metadata?.name === 'guestbook')!;
    const spec = app.spec as { syncPolicy: Record<string, unknown> };
    if (policy.includes('selfHeal')) spec.syncPolicy.automated = { prune: true, selfHeal: true };
    if (!policy.includes('automated')) delete spec.syncPolicy.automated;
    if (annotate)
      app.metadata!.annotations = {
        ...app.metadata!.annotations,
        'argocd.argoproj.io/manifest-generate-paths': annotate,
      };
    return { live, files };
  }

  it('automated sync without self-heal: the next commit of its source — any merge — syncs it back', () => {
    const { live, files } = guestbook('    automated:\n      prune: true\n');
    const move = moves('argocd-csa-label', live, files)[FRONTEND];
    expect(move).toMatchObject({ by: 'Argo CD Application argocd/guestbook', what: 'undo-at-commit' });
    expect(move?.why).toContain("any merge, even one that does not touch this Application's files");
    expect(move?.suspend).toBe('argocd app set guestbook --sync-policy none');
  });

  it('names the paths of manifest-generate-paths, the only commits that re-sync it', () => {
    const { live, files } = guestbook('    automated:\n      prune: true\n', '.');
    expect(moves('argocd-csa-label', live, files)[FRONTEND]?.why).toContain('the next commit that changes .');
  });

  it('self-heal syncs it back at once; without automated sync nothing happens', () => {
    const healed = guestbook('    automated:\n      prune: true\n      selfHeal: true\n');
    expect(moves('argocd-csa-label', healed.live, healed.files)[FRONTEND]).toMatchObject({
      what: 'undo',
      when: '2026-12-01T12:06:00Z',
    });
    const manual = guestbook('');
    expect(moves('argocd-csa-label', manual.live, manual.files)[FRONTEND]?.what).toBe('wait');
  });
});
