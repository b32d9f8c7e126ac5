// The controller scenarios of test/fixtures/controllers: each a GitOps repository (`repo/`, dotfiles
// included) and the snapshots its controllers left (`live/*.json`), built from docs/upstream/controllers.md.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { KubeObject, Snapshot } from '../../src/core/model/index.js';
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
