// The own live drift of a field that holds chart values (a values ConfigMap's key, a HelmRelease's
// spec.values), beside the edit of one of those values: whether live agrees with the edit, disagrees
// with it, or holds more; and how that drift ends up in the codify result (written along with the
// edit, reported with why, never written a second time).
import { describe, expect, it } from 'vitest';
import type { ValueCandidate } from '../../../src/core/codify/chart-candidates.js';
import {
  holderVerdict,
  holdersEditedTwice,
  settleHeldDrift,
  type HeldDrift,
} from '../../../src/core/codify/held-drift.js';
import type { CodifiedChange, ReportedChange } from '../../../src/core/codify/types.js';
import type { DesiredObject, FieldChange, KubeObject, ResourceKey } from '../../../src/core/model/index.js';

const CONFIGMAP: ResourceKey = { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'web-values' };
const RELEASE: ResourceKey = { group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease', namespace: 'shop', name: 'web' };
const DEPLOYMENT: ResourceKey = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web-web' };
const VALUES_KEY = ['data', 'values.yaml'];
const GIT_TEXT = '# shop values\nreplicaCount: 2 # peak\nimage:\n  tag: "1.0"\n';

function configMap(text: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'web-values', namespace: 'shop' },
    data: { 'values.yaml': text },
  };
}
function release(values: Record<string, unknown>): KubeObject {
  const metadata = { name: 'web', namespace: 'shop' };
  return { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata, spec: { values } };
}
function declared(key: ResourceKey, object: KubeObject): DesiredObject {
  return { key, object, source: { file: 'clusters/prod/web.yaml', document: 0 } } as unknown as DesiredObject;
}

/** replicaCount set to `value` in the values.yaml text of ConfigMap shop/web-values. */
const inText = (value: unknown, path = ['replicaCount']): ValueCandidate => ({
  path,
  value,
  label: 'valuesFrom ConfigMap shop/web-values key values.yaml',
  at: { type: 'embedded', key: CONFIGMAP, field: VALUES_KEY, path: [] },
});
const textHolder = { key: CONFIGMAP, segments: VALUES_KEY };

describe('holderVerdict: a values text held by a ConfigMap key', () => {
  const git = declared(CONFIGMAP, configMap(GIT_TEXT));
  const verdict = (liveText: string, candidate = inText(7)) =>
    holderVerdict(candidate, textHolder, git, configMap(liveText));

  it('none when the holder is as Git has it, or is not known', () => {
    expect(verdict(GIT_TEXT)).toEqual({ type: 'none' });
    expect(holderVerdict(inText(7), undefined, git, configMap(GIT_TEXT))).toEqual({ type: 'none' });
    expect(holderVerdict(inText(7), textHolder, git, undefined)).toEqual({ type: 'none' });
    expect(holderVerdict(inText(7), textHolder, undefined, configMap(GIT_TEXT))).toEqual({ type: 'none' });
  });

  it('agrees as a whole when live holds exactly the edited text', () => {
    expect(verdict(GIT_TEXT.replace('2 # peak', '7 # peak'))).toEqual({ type: 'agrees', whole: true });
  });

  it('agrees in part when live holds the value and other changes, even a comment only', () => {
    expect(verdict(`${GIT_TEXT.replace('2 # peak', '7 # peak')}service: {type: NodePort}\n`)).toEqual({
      type: 'agrees',
      whole: false,
    });
    expect(verdict(GIT_TEXT.replace('2 # peak', '7 # scaled'))).toEqual({ type: 'agrees', whole: false });
  });

  it('agrees in part when live kept the Git value and changed something else', () => {
    expect(verdict(GIT_TEXT.replace('"1.0"', '"1.1"'))).toEqual({ type: 'agrees', whole: false });
  });

  it('conflicts when live holds a third value, and says which', () => {
    expect(verdict(GIT_TEXT.replace('2 # peak', '4'))).toEqual({ type: 'conflict', live: 4 });
    expect(verdict(GIT_TEXT.replace('  tag: "1.0"\n', ''), inText('1.2', ['image', 'tag']))).toEqual({
      type: 'conflict',
      live: undefined,
    });
  });

  it('a number and its string are the same value (a chart reads "7" and 7 alike)', () => {
    expect(verdict(GIT_TEXT.replace('2 # peak', '"7" # peak'))).toEqual({ type: 'agrees', whole: false });
  });
});

describe("holderVerdict: values held by an object's field (spec.values)", () => {
  const holder = { key: RELEASE, segments: ['spec', 'values'] };
  const candidate: ValueCandidate = {
    path: ['replicaCount'],
    value: 5,
    label: 'spec.values of HelmRelease shop/web',
    at: { type: 'object', key: RELEASE, path: ['spec', 'values'] },
  };
  const git = declared(RELEASE, release({ replicaCount: 2, service: {} }));

  it('agrees as a whole when live holds the values with the edit made', () => {
    const live = release({ replicaCount: 5, service: {} });
    expect(holderVerdict(candidate, holder, git, live)).toEqual({ type: 'agrees', whole: true });
  });

  it('agrees in part with other values changed, conflicts on another value', () => {
    const more = release({ replicaCount: 5, service: { type: 'NodePort' } });
    expect(holderVerdict(candidate, holder, git, more)).toEqual({ type: 'agrees', whole: false });
    expect(holderVerdict(candidate, holder, git, release({ replicaCount: 3, service: {} }))).toEqual({
      type: 'conflict',
      live: 3,
    });
  });
});

const change = (path: string, segments: FieldChange['segments']): FieldChange => ({
  path,
  segments,
  op: 'replace',
  cause: 'human',
});
const VALUES_CHANGE = change('/data/values.yaml', VALUES_KEY);
const REPLICAS = change('/spec/replicas', ['spec', 'replicas']);
const chartEdit: CodifiedChange = {
  key: DEPLOYMENT,
  change: REPLICAS,
  file: 'clusters/prod/web-values.yaml',
  line: 7,
  kind: 'replace',
  chartValue: { path: ['replicaCount'], where: 'data.values.yaml', source: 'HelmRelease shop/web' },
};

describe('settleHeldDrift', () => {
  const reportedHolder: ReportedChange = { key: CONFIGMAP, change: VALUES_CHANGE, reason: 'first reason' };
  const other: ReportedChange = { key: RELEASE, change: change('/spec/suspend', ['spec', 'suspend']), reason: 'kept' };

  it('a holder drift the edit writes exactly is listed as written, at the edit’s file and line', () => {
    const held: HeldDrift[] = [
      { ...textHolder, reason: 'r', written: { file: 'clusters/prod/web-values.yaml', line: 7 } },
    ];
    const settled = settleHeldDrift([chartEdit], [reportedHolder, other], held);
    expect(settled.codified).toEqual([
      chartEdit,
      { key: CONFIGMAP, change: VALUES_CHANGE, file: 'clusters/prod/web-values.yaml', line: 7, kind: 'replace' },
    ]);
    expect(settled.reported).toEqual([other]);
  });

  it('a holder drift not written is reported with the note’s reason; other reports keep theirs', () => {
    const held: HeldDrift[] = [{ ...textHolder, reason: 'its other live changes are not written' }];
    const settled = settleHeldDrift([chartEdit], [reportedHolder, other], held);
    expect(settled.codified).toEqual([chartEdit]);
    expect(settled.reported).toEqual([{ ...reportedHolder, reason: 'its other live changes are not written' }, other]);
  });

  it('a note on another object or another field of it changes nothing', () => {
    const elsewhere: HeldDrift[] = [
      { key: RELEASE, segments: ['spec', 'values'], reason: 'x', written: { file: 'f.yaml' } },
      { key: CONFIGMAP, segments: ['data', 'other.yaml'], reason: 'y', written: { file: 'f.yaml' } },
    ];
    expect(settleHeldDrift([chartEdit], [reportedHolder], elsewhere)).toEqual({
      codified: [chartEdit],
      reported: [reportedHolder],
    });
  });
});

describe('holdersEditedTwice', () => {
  const ownEdit: CodifiedChange = {
    key: CONFIGMAP,
    change: VALUES_CHANGE,
    file: 'clusters/prod/web-values.yaml',
    line: 5,
    kind: 'replace',
  };
  const notes: HeldDrift[] = [{ ...textHolder, reason: 'r' }];

  it('finds the holder’s own edit of a field a chart edit writes too', () => {
    expect(holdersEditedTwice([ownEdit, chartEdit], notes)).toEqual([ownEdit]);
  });

  it('leaves chart edits, other fields and edits without a note alone', () => {
    const otherField = { ...ownEdit, change: change('/data/other.yaml', ['data', 'other.yaml']) };
    expect(holdersEditedTwice([chartEdit, otherField], notes)).toEqual([]);
    expect(holdersEditedTwice([ownEdit], [])).toEqual([]);
  });
});
