// Live objects made from a generateName manifest are that manifest's, not hand-made extras. The API server
// keeps the prefix in metadata.generateName and appends five characters of utilrand's alphabet
// ("bcdfghjklmnpqrstvwxz2456789", k8s.io/apimachinery/pkg/util/rand and apiserver names.SimpleNameGenerator);
// `kubectl create -f` is the manager that created it.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config/index.js';
import { evaluateDrift } from '../../../src/core/pipeline/index.js';
import { displayKey, type KubeObject } from '../../../src/core/model/index.js';
import { partialLines } from '../../../src/core/report/index.js';

const parsed = parseConfig('clusters:\n  - name: dev\n    path: manifests\n');
if (!parsed.ok) throw new Error('config');
const config = parsed.config;
const cluster = config.clusters![0]!;

const files = new Map([
  [
    'manifests/migrate.yaml',
    'apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: db-migrate-\n  namespace: shop\nspec:\n  template:\n    spec:\n      containers:\n        - name: migrate\n          image: flyway/flyway:10\n      restartPolicy: Never\n',
  ],
  ['manifests/namespace.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n'],
]);

function job(name: string, generateName?: string): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'shop',
      ...(generateName ? { generateName } : {}),
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion: 'batch/v1',
          time: '2026-12-01T09:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:template': {} } },
        },
      ],
    },
    spec: {
      template: { spec: { containers: [{ name: 'migrate', image: 'flyway/flyway:10' }], restartPolicy: 'Never' } },
    },
  };
}

function evaluate(items: KubeObject[]) {
  const evaluation = evaluateDrift({
    snapshot: {
      items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, ...items],
      capturedAt: '2026-12-01T12:05:00Z',
      scope: { namespaces: ['shop'], complete: true, errors: [] },
    },
    ...{ config, cluster, files, history: [], minSnapshots: 1, declined: new Set<string>() },
  });
  if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
  return evaluation;
}

describe('Jobs made from a generateName manifest', () => {
  const evaluation = evaluate([
    job('db-migrate-x7k2p', 'db-migrate-'),
    job('db-migrate-9wzcq', 'db-migrate-'),
    job('db-migrate-manual'),
    job('db-migrate-abcde', 'db-migrate-'),
  ]);
  // A person's Job is reported as a run-once object (owned, never a file); any other kind would be extra.
  const extra = [
    ...evaluation.diff.resources.filter((r) => r.status === 'extra').map((r) => displayKey(r.key)),
    ...(evaluation.diff.owned ?? []).map((o) => displayKey(o.key)),
  ];

  it('are matched back to their manifest, never extra', () => {
    expect(extra).not.toContain('Job/shop/db-migrate-x7k2p');
    expect(extra).not.toContain('Job/shop/db-migrate-9wzcq');
    expect(evaluation.notCompared.map((d) => [d.file, d.made])).toEqual([
      ['manifests/migrate.yaml', ['Job/shop/db-migrate-9wzcq', 'Job/shop/db-migrate-x7k2p']],
    ]);
  });

  it('a Job with the prefix but no generateName, or a suffix the API server never generates, stays extra', () => {
    // "a" and "e" are not in the generator's alphabet (no vowels).
    expect(extra.sort()).toEqual(['Job/shop/db-migrate-abcde', 'Job/shop/db-migrate-manual']);
  });

  it('the CLI names what the manifest made', () => {
    expect(partialLines({ notRendered: [], sources: [], notCompared: evaluation.notCompared })).toEqual([
      'note: manifests/migrate.yaml (document 1): Job with generateName "db-migrate-": each apply creates a new Job ' +
        'with a generated name, so it is not compared; made from it: Job/shop/db-migrate-9wzcq, Job/shop/db-migrate-x7k2p',
    ]);
  });
});
