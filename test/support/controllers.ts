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
