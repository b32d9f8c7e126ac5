// Alert issues as data: what a cluster shows and the issues opened before → the issues to open and
// close, in order, with the state to remember.
import { describe, expect, it } from 'vitest';
import { decideFixesUndone, decideSuspended, withIssue, type SuspensionSeen } from '../../../src/core/decide/index.js';
import type { EmergencyRecord, Suspension } from '../../../src/core/emergency/index.js';

const suspension: Suspension = {
  id: 'flux-system/apps',
  kind: 'flux-kustomization',
  object: {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    namespace: 'flux-system',
    name: 'apps',
  },
  method: 'suspend',
  who: 'alice',
};
const seen = (since: string, extra: Partial<SuspensionSeen> = {}): SuspensionSeen => ({ suspension, since, ...extra });
const NOW = '2026-12-02T12:00:00Z';

describe('decideSuspended', () => {
  const decide = (suspensions: SuspensionSeen[], open: Record<string, { issue: number }> = {}) =>
    decideSuspended({ cluster: 'prod', suspensions, resumeWithin: '8h', open, now: NOW });

  it.each<[string, SuspensionSeen[], Record<string, { issue: number }>, string[], Record<string, { issue: number }>]>([
    ['within resumeWithin: nothing', [seen('2026-12-02T06:00:00Z')], {}, [], {}],
    [
      'past resumeWithin: one issue opened',
      [seen('2026-12-02T03:00:00Z')],
      {},
      ['open alert/prod/suspended/flux-system/apps'],
      {},
    ],
    [
      'already open: not rewritten',
      [seen('2026-12-02T03:00:00Z')],
      { 'flux-system/apps': { issue: 4 } },
      [],
      { 'flux-system/apps': { issue: 4 } },
    ],
    ['resumed: closed with a comment', [], { 'flux-system/apps': { issue: 4 } }, ['close #4'], {}],
  ])('%s', (_name, suspensions, open, expected, next) => {
    const decision = decide(suspensions, open);
    expect(decision.actions.map((a) => (a.kind === 'alert.open' ? `open ${a.key}` : `close #${a.issue}`))).toEqual(
      expected,
    );
    expect(decision.next).toEqual(next);
  });

  it('the opened alert names the emergency PR and says it is merged; its issue goes into the state', () => {
    const [action] = decide([seen('2026-12-02T03:00:00Z', { pullRequest: 9, merged: true })]).actions;
    expect(action).toMatchObject({
      kind: 'alert.open',
      document: 'renderSuspendedAlert',
      view: { cluster: 'prod', now: NOW, resumeWithin: '8h', pullRequest: 9, merged: true },
      why: 'suspended since 2026-12-02 03:00 UTC, longer than emergency.resumeWithin (8h)',
    });
    expect(withIssue({}, 'flux-system/apps', 12)).toEqual({ 'flux-system/apps': { issue: 12 } });
  });

  it('the close comment says the source reconciles again', () => {
    const [action] = decide([], { 'flux-system/apps': { issue: 4 } }).actions;
    expect(action).toMatchObject({
      comment: '`flux-system/apps` in `prod` reconciles again: it was resumed. Closing.',
    });
  });
});

describe('decideFixesUndone', () => {
  const record = (extra: Partial<EmergencyRecord> = {}): EmergencyRecord => ({
    suspension,
    since: '2026-12-02T03:00:00Z',
    branch: 'driftback/prod',
    pullRequest: 9,
    changes: [],
    checklist: { merged: true, resumed: true, applied: false, inSync: false },
    ...extra,
  });
  const decide = (records: Record<string, EmergencyRecord>, open: Record<string, { issue: number }> = {}) =>
    decideFixesUndone({ cluster: 'prod', records, open });
  const outline = (decision: ReturnType<typeof decide>) =>
    decision.actions.map((a) => (a.kind === 'alert.open' ? `open ${a.id}` : `close #${a.issue}: ${a.comment}`));

  it.each<[string, Record<string, EmergencyRecord>, Record<string, { issue: number }>, string[]]>([
    ['a fix followed, not undone: nothing', { 'flux-system/apps': record() }, {}, []],
    [
      'undone: one alert for that PR',
      { 'flux-system/apps': record({ outcome: 'undone' }) },
      {},
      ['open flux-system/apps#9'],
    ],
    [
      'undone and already open: nothing',
      { 'flux-system/apps': record({ outcome: 'undone' }) },
      { 'flux-system/apps#9': { issue: 5 } },
      [],
    ],
    [
      'back in the cluster: closed',
      { 'flux-system/apps': record({ outcome: 'verified' }) },
      { 'flux-system/apps#9': { issue: 5 } },
      ['close #5: The fix of #9 under `flux-system/apps` in `prod` is back in the cluster. Closing.'],
    ],
    [
      'Git changed the field: closed saying so',
      { 'flux-system/apps': record({ outcome: 'verified', released: ['spec.replicas'] }) },
      { 'flux-system/apps#9': { issue: 5 } },
      [
        'close #5: Git now declares another value for `spec.replicas`: the fix of #9 under `flux-system/apps` in `prod` is no longer followed there. Closing.',
      ],
    ],
    [
      'a newer emergency PR of the source: the old alert closes, the new undone one opens',
      { 'flux-system/apps': record({ pullRequest: 11, outcome: 'undone' }) },
      { 'flux-system/apps#9': { issue: 5 } },
      [
        'close #5: The fix of #9 under `flux-system/apps` in `prod` is no longer followed: #11 is the emergency pull request of this source now. Closing.',
        'open flux-system/apps#11',
      ],
    ],
  ])('%s', (_name, records, open, expected) => {
    expect(outline(decide(records, open))).toEqual(expected);
  });

  it('a value moved after "verified" opens an alert with the moved fields and when it was verified', () => {
    const moved = {
      at: NOW,
      fields: [
        {
          key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'api' },
          field: 'spec.replicas',
          pointer: '/spec/replicas',
          from: 8,
          to: 3,
        },
      ],
    };
    const [action] = decide({
      'flux-system/apps': record({ outcome: 'verified', verifiedAt: '2026-12-02T10:00:00Z', moved }),
    }).actions;
    expect(action).toMatchObject({
      kind: 'alert.open',
      document: 'renderFixUndoneAlert',
      view: { source: 'flux-system/apps', pullRequest: 9, verifiedAt: '2026-12-02T10:00:00Z', moved: moved.fields },
    });
  });
});
