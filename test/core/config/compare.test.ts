// What a proposed config would change, one line per difference, as the plan comment lists them.
import { describe, expect, it } from 'vitest';
import { describeConfigChange, parseConfig, type Config } from '../../../src/core/config/index.js';

function config(text: string): Config {
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

const BASE = 'clusters:\n  - name: prod\n    path: clusters/prod\n  - name: edge\n    path: clusters/edge\n';

describe('describeConfigChange', () => {
  it.each([
    ['nothing (only a comment)', `${BASE}# tidy\n`, []],
    [
      'a cluster found by its Flux objects, and another given a controller',
      `${BASE.replace('    path: clusters/edge\n', '    path: clusters/edge\n    controller: argocd\n')}  - name: lab\n    controller: flux\n`,
      ['cluster edge, controller: (unset) → argocd', 'adds cluster lab (paths from its flux objects)'],
    ],
    [
      'a cluster added and one removed',
      'clusters:\n  - name: prod\n    path: clusters/prod\n  - name: lab\n    path: clusters/lab\n',
      ['adds cluster lab (path clusters/lab)', 'removes cluster edge'],
    ],
    [
      'a cluster repointed, its scope narrowed, prune off',
      'clusters:\n  - name: prod\n    path: attacker/dump\n    namespaces: [shop]\n    prune: false\n  - name: edge\n    path: clusters/edge\n',
      [
        'cluster prod, path: clusters/prod → attacker/dump',
        'cluster prod, prune: true → false',
        'cluster prod, namespaces: (unset) → ["shop"]',
      ],
    ],
    [
      'protection dropped',
      `${BASE}plan:\n  protect: [Namespace]\n`,
      ['plan.protect: removes PersistentVolumeClaim, CustomResourceDefinition'],
    ],
    [
      'the gate and the branch prefix',
      `${BASE}drift:\n  minSnapshots: 1\npullRequests:\n  branchPrefix: bot/\n`,
      ['drift.minSnapshots: 2 → 1', 'pullRequests.branchPrefix: driftback/ → bot/'],
    ],
  ])('%s', (_name, proposed, lines) => {
    expect(describeConfigChange(config(BASE), config(proposed))).toEqual(lines);
  });
});
