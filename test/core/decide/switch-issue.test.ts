// The emergency switch issue as a decision on plain values: opened only when a switch waits with no
// drift PR to decide on, kept while one it lists is there, closed saying why once none is. The
// CronJob is kubernetes/website's application/job/cronjob.yaml, copied byte for byte
// (test/fixtures/upstream), suspended with `kubectl patch` (kubectl-patch, an Update of spec.suspend).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig } from '../../../src/core/config/index.js';
import { decideSwitchIssue, type SwitchIssueRecord } from '../../../src/core/decide/index.js';
import type { KubeObject } from '../../../src/core/model/index.js';
import { evaluateDrift, proposeDrift, type DriftInput } from '../../../src/core/pipeline/index.js';
import { readFixture } from '../../support/fixtures.js';

const CRONJOB_TEXT = readFixture('manifests', 'kubernetes-website/content/en/examples/application/job/cronjob.yaml');
const parsed = parseConfig('clusters:\n  - name: dev\n    path: manifests\n    defaultNamespace: shop\n');
if (!parsed.ok) throw new Error('config');
const config = parsed.config;
const key = { group: 'batch', kind: 'CronJob', namespace: 'shop', name: 'hello' };

function cronjob(edit: (spec: Record<string, unknown>) => string[]): KubeObject {
  const live = parse(CRONJOB_TEXT) as KubeObject;
  live.metadata.namespace = 'shop';
  const spec = live.spec as Record<string, unknown>;
  const fields = edit(spec);
  live.metadata.managedFields = [
    {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      apiVersion: 'batch/v1',
      time: '2026-12-01T10:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:jobTemplate': {}, ...(fields.includes('schedule') ? {} : { 'f:schedule': {} }) } },
    },
    ...(fields.length
      ? [
          {
            manager: 'kubectl-patch',
            operation: 'Update',
            apiVersion: 'batch/v1',
            time: '2026-12-01T12:01:00Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': Object.fromEntries(fields.map((field) => [`f:${field}`, {}])) },
          },
        ]
      : []),
  ];
  return live;
}

const suspended = () =>
  cronjob((spec) => {
    spec.suspend = true;
    return ['suspend'];
  });
const rescheduled = () =>
  cronjob((spec) => {
    spec.suspend = true;
    spec.schedule = '*/5 * * * *';
    return ['suspend', 'schedule'];
  });

function decide(live: KubeObject, previous?: SwitchIssueRecord) {
  const input: DriftInput = {
    snapshot: {
      items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }, live],
      capturedAt: '2026-12-01T12:05:00Z',
      scope: { namespaces: ['shop'], complete: true, errors: [] },
    },
    config,
    cluster: config.clusters![0]!,
    files: new Map([['manifests/cronjob.yaml', CRONJOB_TEXT]]),
    history: [],
    minSnapshots: 1,
    declined: new Set(),
  };
  const evaluated = evaluateDrift(input);
  if (evaluated.type !== 'evaluated') throw new Error(JSON.stringify(evaluated));
  const groups = proposeDrift(input, evaluated);
  return decideSwitchIssue({
    cluster: 'dev',
    groups,
    compared: evaluated.diff,
    branches: {},
    ...(previous ? { previous } : {}),
  });
}

const record: SwitchIssueRecord = {
  issue: 7,
  hash: 'h',
  switches: [{ key, path: '/spec/suspend', field: 'spec.suspend', live: true }],
};

describe('the emergency switch issue', () => {
  it('opens for a switch flipped alone, with what it stops, who, when, and the file that declares it', () => {
    const [action] = decide(suspended());
    if (action?.kind !== 'switch-issue.write') throw new Error(JSON.stringify(action));
    expect(action.issue).toBeUndefined();
    expect(action.view.switches).toEqual([
      expect.objectContaining({
        key,
        field: 'spec.suspend',
        live: true,
        did: 'suspended',
        on: true,
        manager: 'kubectl-patch',
        time: '2026-12-01T12:01:00Z',
        file: 'manifests/cronjob.yaml',
        stops: expect.stringContaining('the hello job is not running'),
      }),
    ]);
  });

  it('is not opened when a drift PR shows the switch (other drift is codified with it)', () => {
    expect(decide(rescheduled())).toEqual([]);
  });

  it('once open, is kept while the switch waits, even beside a drift PR', () => {
    const [action] = decide(rescheduled(), record);
    expect(action).toMatchObject({ kind: 'switch-issue.write', issue: 7 });
  });

  it('closes saying the switch is back to Git value when it was turned back by hand', () => {
    const [action] = decide(
      cronjob(() => []),
      record,
    );
    expect(action).toEqual({
      kind: 'switch-issue.close',
      issue: 7,
      comment: expect.stringContaining("`CronJob/shop/hello` `spec.suspend`: back to Git's value in the cluster."),
    });
  });

  it('nothing to do with no switch and no issue', () => {
    expect(decide(cronjob(() => []))).toEqual([]);
  });
});
