// No false alarms: every snapshot of every controller scenario (test/fixtures/controllers: Flux, Helm,
// Argo CD, a fresh kind cluster, hand-made objects, emergencies, ordinary hand changes under a policy
// mutator) goes through the drift pipeline as its repository configures it, and the ordinary changes
// people made there — kubectl scale, edit, set image within the repository's registries, set env, set
// resources, rollout restart and pause, kubectl run of a debug Pod, a hand-made ConfigMap, a Gateway
// listener, a HelmRelease value — carry no risk code. Only the tampering timeline does.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { riskyDrift } from '../../src/core/risk/index.js';
import { displayKey } from '../../src/core/model/index.js';
import { CONTROLLER_SCENARIOS, evaluateScenario, scenarioSnapshot } from '../support/controllers.js';

const snapshots = readdirSync(CONTROLLER_SCENARIOS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .flatMap((entry) =>
    readdirSync(join(CONTROLLER_SCENARIOS, entry.name, 'live'))
      .filter((file) => file.endsWith('.json'))
      .map((file) => [entry.name, file.replace(/\.json$/, '')] as const),
  );

/** Every risky item of a snapshot, allowed or not, as `Kind/ns/name path: codes`. */
function risky(scenario: string, snapshotName: string): string[] {
  const evaluation = evaluateScenario(scenario, scenarioSnapshot(scenario, snapshotName));
  return riskyDrift(evaluation.diff, false).map(
    (item) => `${displayKey(item.key)} ${item.change?.path ?? ''}: ${item.risk.map((r) => r.code).join(', ')}`,
  );
}

describe('no risk code on the ordinary changes of the realistic scenarios', () => {
  it('finds the scenarios', () => {
    expect(snapshots.length).toBeGreaterThan(20);
    expect(snapshots).toContainEqual(['hand-made', 'hand-made']);
    expect(snapshots).toContainEqual(['tampering', 'ordinary']);
  });

  it.each(snapshots.filter(([scenario, name]) => !(scenario === 'tampering' && name === 'tampering')))(
    '%s/%s',
    (scenario, name) => {
      expect(risky(scenario, name)).toEqual([]);
    },
  );

  it('while the tampering timeline is marked', () => {
    expect(risky('tampering', 'tampering').length).toBeGreaterThan(0);
  });
});
