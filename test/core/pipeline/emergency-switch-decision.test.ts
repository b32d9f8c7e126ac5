// An emergency switch flipped by hand is held for a person's decision, never codified on its own; the
// decision (`/driftback allow <field> on <Kind/ns/name> because …`, recorded by the fingerprint of that
// live value) is what writes it into Git. The CronJob is kubernetes/website's
// application/job/cronjob.yaml, copied byte for byte (test/fixtures/upstream); `kubectl patch` writes
// as kubectl-patch, an Update of exactly spec.suspend.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fingerprintChange } from '../../../src/core/classify/index.js';
import { commandItemsOf, matchItems, parseCommand } from '../../../src/core/commands/index.js';
import { parseConfig } from '../../../src/core/config/index.js';
import type { KubeObject, ResourceKey } from '../../../src/core/model/index.js';
import { codifyEvaluated, evaluateDrift, type DriftInput } from '../../../src/core/pipeline/index.js';
import { renderDriftPullRequest } from '../../../src/core/report/index.js';
import type { RiskDecisions } from '../../../src/core/risk/index.js';
import { readFixture } from '../../support/fixtures.js';

const CRONJOB_TEXT = readFixture('manifests', 'kubernetes-website/content/en/examples/application/job/cronjob.yaml');
const parsed = parseConfig('clusters:\n  - name: dev\n    path: manifests\n    defaultNamespace: shop\n');
if (!parsed.ok) throw new Error('config');
const config = parsed.config;
const files = new Map([['manifests/cronjob.yaml', CRONJOB_TEXT]]);
const key: ResourceKey = { group: 'batch', kind: 'CronJob', namespace: 'shop', name: 'hello' };

function suspendedLive(): KubeObject {
  const live = parse(CRONJOB_TEXT) as KubeObject;
  live.metadata.namespace = 'shop';
  (live.spec as Record<string, unknown>).suspend = true;
  live.metadata.managedFields = [
    {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      apiVersion: 'batch/v1',
      time: '2026-12-01T10:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:schedule': {}, 'f:jobTemplate': {} } },
    },
    {
      manager: 'kubectl-patch',
      operation: 'Update',
      apiVersion: 'batch/v1',
      time: '2026-12-01T12:01:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:suspend': {} } },
    },
  ];
  return live;
}

function inputOf(riskDecisions?: RiskDecisions): DriftInput {
  return {
    snapshot: {
      items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, suspendedLive()],
      capturedAt: '2026-12-01T12:05:00Z',
      scope: { namespaces: ['shop'], complete: true, errors: [] },
    },
    config,
    cluster: config.clusters![0]!,
    files,
    history: [],
    minSnapshots: 2,
    declined: new Set(),
    ...(riskDecisions ? { riskDecisions } : {}),
  };
}

function run(riskDecisions?: RiskDecisions) {
  const input = inputOf(riskDecisions);
  const evaluated = evaluateDrift(input);
  if (evaluated.type !== 'evaluated') throw new Error(JSON.stringify(evaluated));
  return { evaluated, codify: codifyEvaluated(input, evaluated) };
}

describe('an emergency switch and the decision to keep it', () => {
  const before = run();
  const [cronjob] = before.evaluated.diff.resources.filter((r) => r.key.name === 'hello');
  const flipped = cronjob!.reported![0]!;

  it('is held for a decision: the drift PR item can be allowed, and the reason names the command', () => {
    expect(before.codify.codified).toEqual([]);
    expect(flipped.reported!.reason).toMatch(/the hello job is not running/);
    expect(flipped.reported!.reason).toContain('`/driftback allow <field> on <Kind/namespace/name> because …`');
    const items = commandItemsOf([{ branch: 'driftback/dev', result: before.evaluated.diff, codify: before.codify }]);
    const command = parseCommand('/driftback allow spec.suspend on CronJob/shop/hello because archive paused until Q1');
    if (command?.type !== 'allow') throw new Error('command');
    expect(matchItems(items, command.target)).toEqual([
      expect.objectContaining({ status: 'held-back', path: '/spec/suspend', fingerprint: expect.any(String) }),
    ]);
  });

  it("is written into Git at once by a person's decision on that value, marked with who and why", () => {
    const decisions = new Map([[fingerprintChange(key, flipped), { reason: 'archive paused until Q1', by: 'alice' }]]);
    const after = run(decisions);
    expect(after.codify.codified.map((c) => c.change?.path)).toEqual(['/spec/suspend']);
    const text = after.codify.edits.get('manifests/cronjob.yaml')!;
    expect(text).toBe(`${CRONJOB_TEXT}  suspend: true\n`);
    const body = renderDriftPullRequest({
      cluster: 'dev',
      codified: after.codify.codified,
      reported: after.codify.reported,
      snapshot: { id: 's1', capturedAt: '2026-12-01T12:05:00Z' },
    });
    expect(body).toContain('emergency switch kept (decided by alice: archive paused until Q1)');
  });

  it('a decision on another value does not keep it', () => {
    const other = { ...flipped, live: false };
    const after = run(new Map([[fingerprintChange(key, other), { reason: 'no', by: 'bob' }]]));
    expect(after.codify.codified).toEqual([]);
  });
});
