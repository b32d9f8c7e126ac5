// The controller scenarios of test/fixtures/controllers: each a GitOps repository (`repo/`, dotfiles
// included) and the snapshots its controllers left (`live/*.json`), built from docs/upstream/controllers.md.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { KubeObject, Snapshot } from '../../src/core/model/index.js';
import { parseConfig } from '../../src/core/config/index.js';
import { evaluateDrift, type EvaluatedDrift } from '../../src/core/pipeline/index.js';
import { REPO_ROOT } from './fixtures.js';

export const CONTROLLER_SCENARIOS = resolve(REPO_ROOT, 'test/fixtures/controllers');

/** The scenario's repository as path → text (paths relative to `repo/`, `/` separators). */
export function scenarioRepository(scenario: string): Map<string, string> {
  const root = join(CONTROLLER_SCENARIOS, scenario, 'repo');
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(relative(root, full).split(sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** One snapshot of the scenario (`live/<name>.json`). */
export function scenarioSnapshot(scenario: string, name: string): Snapshot & { items: KubeObject[] } {
  return JSON.parse(readFileSync(join(CONTROLLER_SCENARIOS, scenario, 'live', `${name}.json`), 'utf8'));
}

/**
 * A snapshot through the drift pipeline as the scenario's repository configures it (`emergency:` belongs
 * to the suspension procedure, read elsewhere; the rest is the config as written). The snapshot's cluster
 * is picked from the config; `files` default to the scenario's repository.
 */
export function evaluateScenario(
  scenario: string,
  snapshot: Snapshot & { items: KubeObject[] },
  options: { files?: Map<string, string>; minSnapshots?: number } = {},
): EvaluatedDrift {
  const files = options.files ?? scenarioRepository(scenario);
  const parsed = parseConfig(files.get('.github/driftback.yml')!.replace(/^emergency:\n(?: .*\n)*/m, ''));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const cluster = parsed.config.clusters!.find((c) => c.name === snapshot.cluster) ?? parsed.config.clusters![0]!;
  const minSnapshots = options.minSnapshots ?? 1;
  const input = {
    snapshot,
    config: parsed.config,
    cluster,
    files,
    history: [],
    minSnapshots,
    declined: new Set<string>(),
  };
  const evaluation = evaluateDrift(input);
  if (evaluation.type !== 'evaluated') throw new Error(`${scenario}/${snapshot.cluster}: ${evaluation.type}`);
  return evaluation;
}

/**
 * flux-podinfo's `hand-changes` snapshot as kustomize-controller leaves it after its next reconcile, at
 * 12:15: Git's values back (2 replicas, podinfo 6.14.0, 256Mi, no PODINFO_LEVEL), the kubectl
 * managedFields entries taken over (fluxcd/pkg ssa PatchReplaceFieldsManagers) and its own Apply entry
 * written at 12:13:41. Every person's change of `hand-changes` is undone in it.
 */
export function fluxPodinfoAfterReconcile(): Snapshot & { items: KubeObject[] } {
  const live = scenarioSnapshot('flux-podinfo', 'hand-changes');
  live.capturedAt = '2026-12-01T12:15:00Z';
  const deployment = live.items.find((o) => o.kind === 'Deployment' && o.metadata?.name === 'podinfo')!;
  const spec = deployment.spec as {
    replicas: number;
    template: { spec: { containers: Array<Record<string, unknown> & { env: Array<{ name: string }> }> } };
  };
  spec.replicas = 2;
  const container = spec.template.spec.containers[0]!;
  container.image = 'ghcr.io/stefanprodan/podinfo:6.14.0';
  (container.resources as { limits: Record<string, string> }).limits.memory = '256Mi';
  container.env = container.env.filter((env) => env.name !== 'PODINFO_LEVEL');
  const entries = deployment.metadata!.managedFields!;
  deployment.metadata!.managedFields = entries.filter((entry) => !entry.manager!.startsWith('kubectl'));
  deployment.metadata!.managedFields[0]!.time = '2026-12-01T12:13:41Z';
  return live;
}
