// Keys named __proto__, constructor and prototype are data, never a way into Object.prototype: a
// manifest or a live object holding them (a ConfigMap may: its keys are [-._a-zA-Z0-9]+) goes
// through render, diff, plan and report, the keys are compared like any other, and nothing leaks.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/index.js';
import { diffResources } from '../../../src/core/diff/index.js';
import { renderManifests } from '../../../src/core/manifests/index.js';
import { getAt, parseSnapshot, type KubeObject } from '../../../src/core/model/index.js';
import { planChanges } from '../../../src/core/plan/index.js';
import { renderPlanComment } from '../../../src/core/report/index.js';

const MANIFEST = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
data:
  __proto__: from-git
  constructor: from-git
  prototype: from-git
  plain: from-git
`;

/** What the agent uploads: JSON text, so the keys are own properties, as JSON.parse makes them. */
function liveFromJson(): KubeObject {
  return JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"shop","managedFields":[
    {"manager":"kubectl-edit","operation":"Update","apiVersion":"v1","time":"2026-12-02T03:00:00Z","fieldsType":"FieldsV1",
     "fieldsV1":{"f:data":{"f:__proto__":{},"f:constructor":{},"f:prototype":{},"f:plain":{},"f:extra":{}}}}]},
    "data":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":"live","plain":"from-git","extra":"live"}}`) as KubeObject;
}

const before = Object.getOwnPropertyNames(Object.prototype).sort();
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('prototype-named keys', () => {
  it('render keeps them as plain data keys', () => {
    const rendered = renderManifests(new Map([['apps/settings.yaml', MANIFEST]]), 'apps');
    expect(rendered.errors).toEqual([]);
    const data = rendered.objects[0].object.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['__proto__', 'constructor', 'prototype', 'plain']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data, '__proto__') && data['__proto__']).toBe('from-git');
  });

  it('diff, plan and the plan comment compare them as fields and pollute nothing', () => {
    const rendered = renderManifests(new Map([['apps/settings.yaml', MANIFEST]]), 'apps');
    const live = liveFromJson();
    const diff = diffResources(rendered.objects, [live], { config: defaultConfig() });
    const paths = diff.resources[0].changes.map((change) => `${change.op} ${change.path}`).sort();
    expect(paths).toEqual([
      'add /data/extra',
      'replace /data/__proto__',
      'replace /data/constructor',
      'replace /data/prototype',
    ]);
    const plan = planChanges({
      head: rendered.objects,
      base: [],
      live: [live],
      config: defaultConfig(),
      now: '2026-12-02T12:00:00Z',
    });
    expect(plan.update.map((entry) => entry.changes.map((change) => change.path).sort())).toEqual([
      ['/data/__proto__', '/data/constructor', '/data/prototype'],
    ]);
    const comment = renderPlanComment([{ cluster: 'prod', plan }], {
      headSha: 'a'.repeat(40),
      snapshots: {},
      errors: [],
    });
    expect(comment).toContain('__proto__');
  });

  it('a plan that sets a field under __proto__ writes the YAML diff into the object, not Object.prototype', () => {
    const manifest =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: blob\n  namespace: shop\nbinaryData:\n  __proto__:\n    polluted: Z2l0\n';
    const rendered = renderManifests(new Map([['apps/blob.yaml', manifest]]), 'apps');
    const live = JSON.parse(
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"blob","namespace":"shop"},"binaryData":{"__proto__":{"polluted":"bGl2ZQ=="}}}`,
    ) as KubeObject;
    const plan = planChanges({
      head: rendered.objects,
      base: rendered.objects,
      live: [live],
      config: defaultConfig(),
      now: '2026-12-02T12:00:00Z',
    });
    expect(plan.update.flatMap((entry) => entry.changes.map((change) => change.path))).toEqual([
      '/binaryData/__proto__/polluted',
    ]);
    const comment = renderPlanComment([{ cluster: 'prod', plan }], {
      headSha: 'a'.repeat(40),
      snapshots: {},
      errors: [],
    });
    expect(comment).toContain('-    polluted: bGl2ZQ==');
    expect(comment).toContain('+    polluted: Z2l0');
  });

  it('a missing key of that name reads as missing, not as the inherited member', () => {
    expect(getAt({ data: {} }, ['data', 'constructor'])).toBeUndefined();
    expect(getAt({ data: {} }, ['data', '__proto__', 'polluted'])).toBeUndefined();
  });
});

describe('ingest', () => {
  it.each([
    ['__proto__', '{"__proto__":{"polluted":"yes"}}', 'items[0].binaryData.__proto__'],
    ['constructor', '{"constructor":{"prototype":{"polluted":"yes"}}}', 'items[0].binaryData.constructor'],
    ['prototype', '{"prototype":"x"}', 'items[0].binaryData.prototype'],
  ])('refuses a snapshot holding a %s key, with its path', (key, binaryData, path) => {
    const document =
      JSON.parse(`{"apiVersion":"driftback.dev/v1","kind":"Snapshot","repository":"acme/gitops","cluster":"prod","capturedAt":"2026-12-02T03:00:00Z",
      "scope":{"complete":true},"items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"y"},"binaryData":${binaryData}}]}`);
    const parsed = parseSnapshot(document);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      { path, message: expect.stringMatching(new RegExp(`^the key "${key}" is refused.*DRIFTBACK_EXCLUDE`)) },
    ]);
  });
});
