// A person's `kubectl apply` on an object Argo CD applies is a person's change, codified like any other; Argo
// CD's own writes are not. What each side writes is taken from upstream (docs/upstream/controllers.md §Argo CD
// "Apply"): Argo CD syncs with field manager `argocd-controller` — an Update with the last-applied annotation
// under client-side apply (gitops-engine pkg/utils/kube/resource_ops.go), an Apply under ServerSideApply=true —
// at the times its Application records (`status.operationState.startedAt`..`finishedAt`, `status.history[]`);
// its client-side-apply migration step writes as `kubectl-client-side-apply` inside a sync (gitops-engine
// pkg/sync/sync_context.go, #727). A person's `kubectl apply` is an Update by `kubectl-client-side-apply` that owns
// what it changed and the last-applied annotation (kubectl pkg/cmd/apply/apply.go), or with `--server-side` an
// Apply by `kubectl` that owns everything the person's manifest declares (kube-apiserver fieldmanager).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config/index.js';
import { reconcileDrift, type Evaluation } from '../../../src/core/pipeline/index.js';
import { displayKey, type KubeObject, type ManagedFieldsEntry } from '../../../src/core/model/index.js';
import { scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const ENV = { name: 'LOG_LEVEL', value: 'debug' };

interface Case {
  scenario: string;
  namespace: string;
  container: string;
  file: string;
}

const CSA: Case = {
  scenario: 'argocd-csa-label',
  namespace: 'guestbook',
  container: 'php-redis',
  file: 'web/guestbook/frontend-deployment.yaml',
};
const SSA: Case = {
  scenario: 'argocd-ssa-annotation',
  namespace: 'boutique',
  container: 'server',
  file: 'apps/online-boutique/frontend.yaml',
};

type Containers = { name: string; env?: unknown[] }[];
const containersOf = (o: KubeObject): Containers =>
  ((o.spec as { template: { spec: { containers: Containers } } }).template.spec.containers ?? []) as Containers;

/** The frontend Deployment of the snapshot, with a `LOG_LEVEL=debug` env var written by `manager` at `time`. */
function handApplied(c: Case, manager: 'kubectl-client-side-apply' | 'kubectl', time: string): KubeObject[] {
  const snapshot = scenarioSnapshot(c.scenario, 'unchanged');
  const items = snapshot.items.map((o) => JSON.parse(JSON.stringify(o)) as KubeObject);
  const frontend = items.find(
    (o) => o.kind === 'Deployment' && o.metadata.namespace === c.namespace && o.metadata.name === 'frontend',
  )!;
  const container = containersOf(frontend).find((x) => x.name === c.container)!;
  container.env = [...(container.env ?? []), ENV];
  const envField = { [`k:{"name":"${ENV.name}"}`]: { '.': {}, 'f:name': {}, 'f:value': {} } };
  const spec = {
    'f:spec': {
      'f:template': { 'f:spec': { 'f:containers': { [`k:{"name":"${c.container}"}`]: { 'f:env': envField } } } },
    },
  };
  const annotations = (frontend.metadata.annotations ??= {});
  let fieldsV1: Record<string, unknown> = spec;
  if (manager === 'kubectl-client-side-apply') {
    // kubectl writes what it applied into the annotation: the manifest Argo CD last applied, plus the env var.
    const applied = JSON.parse(annotations[LAST_APPLIED] ?? '{}') as KubeObject;
    if (applied.spec) containersOf(applied).find((x) => x.name === c.container)!.env = container.env;
    annotations[LAST_APPLIED] = JSON.stringify(applied.spec ? applied : { ...frontend, status: undefined });
    fieldsV1 = { 'f:metadata': { 'f:annotations': { [`f:${LAST_APPLIED}`]: {} } }, ...spec };
    // The changed annotation moves to its writer.
    for (const entry of frontend.metadata.managedFields ?? []) {
      const metadata = (entry.fieldsV1 as Record<string, Record<string, Record<string, unknown>>>)['f:metadata'];
      delete metadata?.['f:annotations']?.[`f:${LAST_APPLIED}`];
    }
  }
  const entry: ManagedFieldsEntry = {
    manager,
    operation: manager === 'kubectl' ? 'Apply' : 'Update',
    apiVersion: 'apps/v1',
    time,
    fieldsType: 'FieldsV1',
    fieldsV1,
  };
  frontend.metadata.managedFields = [...(frontend.metadata.managedFields ?? []), entry];
  return items;
}

function evaluate(
  c: Case,
  items: KubeObject[],
): Extract<Evaluation, { groups: unknown }> & { files: Map<string, string> } {
  const files = scenarioRepository(c.scenario);
  const parsed = parseConfig(files.get('.github/driftback.yml')!);
  if (!parsed.ok) throw new Error('config');
  const snapshot = { ...scenarioSnapshot(c.scenario, 'unchanged'), items };
  const evaluation = reconcileDrift({
    snapshot,
    config: parsed.config,
    cluster: parsed.config.clusters![0]!,
    files,
    history: [],
    minSnapshots: 1,
    declined: new Set(),
  });
  if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
  return { ...evaluation, files };
}

const envChanges = (e: ReturnType<typeof evaluate>) =>
  e.diff.resources.flatMap((r) =>
    [...r.changes, ...(r.reported ?? [])]
      .filter((change) => JSON.stringify(change.live ?? '').includes('LOG_LEVEL'))
      .map((change) => ({ id: displayKey(r.key), op: change.op, manager: change.manager, cause: change.cause })),
  );
const writtenEnv = (e: ReturnType<typeof evaluate>, file: string): boolean =>
  e.groups.some((group) => group.codify.edits.get(file)?.includes('LOG_LEVEL') ?? false);

describe("a person's kubectl apply under Argo CD is codified", () => {
  it.each([
    ['client-side sync, client-side apply by hand', CSA, 'kubectl-client-side-apply'],
    ['server-side sync, client-side apply by hand', SSA, 'kubectl-client-side-apply'],
    ['server-side sync, kubectl apply --server-side by hand', SSA, 'kubectl'],
  ] as const)('%s', (_, c, manager) => {
    const evaluation = evaluate(c, handApplied(c, manager, '2026-12-01T12:06:00Z'));
    expect(envChanges(evaluation)).toEqual([
      { id: `Deployment/${c.namespace}/frontend`, op: 'add', manager, cause: 'human' },
    ]);
    expect(writtenEnv(evaluation, c.file)).toBe(true);
    const edited = evaluation.groups.flatMap((group) => [...group.codify.edits.keys()]);
    expect(edited).toEqual([c.file]);
  });
});

describe("Argo CD's own writes are not a person's", () => {
  it("a kubectl-client-side-apply entry inside the Application's sync (its migration step) is the applier's", () => {
    // guestbook synced 09:10:06–09:10:08 (status.operationState of argocd-csa-label's unchanged snapshot).
    const evaluation = evaluate(CSA, handApplied(CSA, 'kubectl-client-side-apply', '2026-12-01T09:10:07Z'));
    const changes = envChanges(evaluation);
    expect(changes.map((change) => change.cause)).toEqual(['applier']);
    expect(changes[0]!.op).toBe('remove');
    expect(writtenEnv(evaluation, CSA.file)).toBe(false);
  });

  it('an unchanged cluster under either sync has no human cause anywhere', () => {
    for (const c of [CSA, SSA]) {
      const evaluation = evaluate(c, scenarioSnapshot(c.scenario, 'unchanged').items);
      const human = evaluation.diff.resources.flatMap((r) => r.changes.filter((change) => change.cause === 'human'));
      expect(human).toEqual([]);
    }
  });
});
