// `/driftback ignore` as a config edit: the rules a command's items give, scoped as the command was,
// and `.github/driftback.yml` with them appended byte-exactly (comments and style kept), checked by
// the config parser.
import { describe, expect, it } from 'vitest';
import { addIgnoreRules, configBranch, ignoreRulesFor, ruleReason } from '../../../src/core/commands/index.js';
import { clusterSchema, parseConfig } from '../../../src/core/config/index.js';
import { branchFor } from '../../../src/core/pipeline/index.js';

/** The field as a command item prints it: a pointer's list positions named by key where a list has one. */
const FIELDS: Record<string, string> = {
  '/spec/template/spec/containers/0/image': 'spec.template.spec.containers[app].image',
  '/spec/template/spec/containers/0/env/1/value': 'spec.template.spec.containers[app].env[DEBUG].value',
  '/subjects/0/name': 'subjects[0].name',
};
const printed = (path: string) => FIELDS[path] ?? path.slice(1).replaceAll('/', '.');
const api = (path: string, manager = 'kubectl') => ({
  key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'api' },
  path,
  field: printed(path),
  manager,
});
const web = (path: string) => ({
  key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
  path,
  field: printed(path),
});
const crb = {
  key: { group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding', namespace: '', name: 'oncall' },
  path: '/subjects/0/name',
  field: printed('/subjects/0/name'),
};
const ON_API = { object: { kind: 'deployment', namespace: 'shop', name: 'api' }, field: 'spec.replicas' };

describe('ignoreRulesFor', () => {
  it('with an object: that one object, the items’ fields as driftback prints them', () => {
    expect(ignoreRulesFor([api('/spec/replicas')], ON_API, 'sale')).toEqual([
      { kinds: ['Deployment'], names: ['api'], namespaces: ['shop'], paths: ['spec.replicas'], reason: 'sale' },
    ]);
  });

  it('a cluster-scoped object gets no namespaces', () => {
    const target = { object: { kind: 'ClusterRoleBinding', namespace: '', name: 'oncall' } };
    expect(ignoreRulesFor([crb], target, 'why')).toEqual([
      { kinds: ['ClusterRoleBinding'], names: ['oncall'], paths: ['subjects[0].name'], reason: 'why' },
    ]);
  });

  it('without an object: every object of each kind the field was found on', () => {
    const rules = ignoreRulesFor([api('/spec/replicas'), web('/spec/replicas')], { field: 'spec.replicas' }, 'hpa');
    expect(rules).toEqual([{ kinds: ['Deployment'], paths: ['spec.replicas'], reason: 'hpa' }]);
  });

  it('the field the command gave, as deep as it was given, list items named by key (a pointer too)', () => {
    const items = [api('/spec/template/spec/containers/0/image'), api('/spec/template/spec/containers/0/env/1/value')];
    for (const field of ['/spec/template/spec/containers/0', 'spec.template.spec.containers[app]']) {
      const target = { object: ON_API.object, field };
      expect(ignoreRulesFor(items, target, 'r')[0].paths).toEqual(['spec.template.spec.containers[app]']);
    }
    const target = { object: ON_API.object, field: 'spec.template.spec.containers[app].env' };
    expect(ignoreRulesFor(items.slice(1), target, 'r')[0].paths).toEqual(['spec.template.spec.containers[app].env']);
    // Without a field: each item's whole field.
    expect(ignoreRulesFor(items, { object: ON_API.object }, 'r')[0].paths).toEqual([
      'spec.template.spec.containers[app].image',
      'spec.template.spec.containers[app].env[DEBUG].value',
    ]);
  });

  it('an existing rule with a printed field or a pointer covers the item', () => {
    const image = api('/spec/template/spec/containers/0/image');
    for (const path of [
      'spec.template.spec.containers[app]',
      'spec.template.spec.containers[*].image',
      '/spec/template',
    ])
      expect(ignoreRulesFor([image], ON_API, 'r', [{ paths: [path], reason: 'old' }])).toEqual([]);
    expect(
      ignoreRulesFor([image], ON_API, 'r', [{ paths: ['spec.template.spec.containers[web]'], reason: 'old' }]),
    ).toHaveLength(1);
  });

  it('nothing for a whole object, nor for an item an existing rule already ignores', () => {
    const whole = { ...api(''), path: '' };
    expect(ignoreRulesFor([whole], { object: ON_API.object }, 'r')).toEqual([]);
    const existing = [{ kinds: ['Deployment'], paths: ['/spec'], reason: 'old' }];
    expect(ignoreRulesFor([api('/spec/replicas')], ON_API, 'r', existing)).toEqual([]);
    // A rule for another manager does not cover it.
    const hpaOnly = [{ kinds: ['Deployment'], paths: ['/spec/replicas'], managers: ['hpa'], reason: 'old' }];
    expect(ignoreRulesFor([api('/spec/replicas')], ON_API, 'r', hpaOnly)).toHaveLength(1);
  });

  it('the reason says who asked and where', () => {
    expect(ruleReason('scaled for the sale', 'alice', 12)).toBe(
      'scaled for the sale (alice, /driftback ignore on #12)',
    );
    expect(ruleReason(undefined, 'alice', 12)).toBe('no reason given (alice, /driftback ignore on #12)');
  });
});

const RULE = { kinds: ['Deployment'], names: ['api'], namespaces: ['shop'], paths: ['/spec/replicas'], reason: 'sale' };

describe('addIgnoreRules', () => {
  it('appends to an existing drift.ignore in the file’s own style, every other byte kept', () => {
    const text = [
      '# driftback settings',
      'clusters:',
      '- name: prod   # the big one',
      '  path: clusters/prod',
      'drift:',
      '  minSnapshots: 3   # slow agent',
      '  ignore:',
      '  - kinds: [Deployment]',
      '    paths: [/spec/replicas]',
      '    managers: [kube-controller-manager]',
      '    reason: replicas belong to the HPA',
      'plan:',
      '  protect: [Namespace]',
      '',
    ].join('\n');
    const result = addIgnoreRules(text, [RULE]);
    expect(result).toEqual({
      ok: true,
      text: text.replace(
        '  - kinds: [Deployment]\n    paths: [/spec/replicas]\n    managers: [kube-controller-manager]\n    reason: replicas belong to the HPA\n',
        '  - kinds: [Deployment]\n    paths: [/spec/replicas]\n    managers: [kube-controller-manager]\n    reason: replicas belong to the HPA\n' +
          '  - kinds: [Deployment]\n    names: [api]\n    namespaces: [shop]\n    paths: [/spec/replicas]\n    reason: sale\n',
      ),
    });
  });

  it('adds drift.ignore, or drift, where the file has none', () => {
    const text = 'clusters:\n  - name: prod\n    path: clusters/prod\ndrift:\n  minSnapshots: 3\n';
    const result = addIgnoreRules(text, [RULE]);
    expect(result.ok && result.text.startsWith(text)).toBe(true);
    const parsed = parseConfig(result.ok ? result.text : '');
    expect(parsed.ok && parsed.config.drift).toMatchObject({ minSnapshots: 3, ignore: [RULE] });
    const bare = addIgnoreRules('clusters:\n  - name: prod\n    path: p\n', [RULE]);
    expect(bare.ok && parseConfig(bare.text).ok).toBe(true);
  });

  it('creates the file when there is none, and writes below a file of comments only', () => {
    const created = addIgnoreRules(undefined, [RULE]);
    expect(created).toEqual({
      ok: true,
      text: 'drift:\n  ignore:\n    - kinds: [Deployment]\n      names: [api]\n      namespaces: [shop]\n      paths: [/spec/replicas]\n      reason: sale\n',
    });
    const commented = addIgnoreRules('# settings come later\n', [RULE]);
    expect(commented.ok && commented.text).toBe(`# settings come later\n${created.ok ? created.text : ''}`);
  });

  it('writes block lists when the file’s rules do, and quotes flow items YAML would misread', () => {
    const text =
      'drift:\n  ignore:\n    - kinds:\n        - Service\n      paths:\n        - /spec/ports\n      reason: mesh\n';
    const result = addIgnoreRules(text, [RULE]);
    expect(result).toEqual({
      ok: true,
      text:
        text +
        '    - kinds:\n        - Deployment\n      names:\n        - api\n      namespaces:\n        - shop\n      paths:\n        - /spec/replicas\n      reason: sale\n',
    });
    const odd = { ...RULE, paths: ['/metadata/annotations/a,b', '/metadata/labels/x]'] };
    const flow = addIgnoreRules('drift:\n  ignore: []\n', [odd]);
    expect(flow.ok && flow.text).toContain('names: [api]');
    const parsed = parseConfig(flow.ok ? flow.text : '');
    expect(parsed.ok && parsed.config.drift.ignore[0].paths).toEqual(odd.paths);
  });

  it('printed fields with list keys, which flow style would misread, are written as a block list', () => {
    const keyed = { ...RULE, paths: ['spec.template.spec.containers[app].image', 'metadata.annotations["a/b"]'] };
    expect(addIgnoreRules(undefined, [keyed])).toEqual({
      ok: true,
      text:
        'drift:\n  ignore:\n    - kinds: [Deployment]\n      names: [api]\n      namespaces: [shop]\n' +
        '      paths:\n        - spec.template.spec.containers[app].image\n        - metadata.annotations["a/b"]\n' +
        '      reason: sale\n',
    });
  });

  it('a reason YAML would misread is quoted, and reads back as written', () => {
    const reason = 'sale: #1 priority (alice, /driftback ignore on #7)';
    const result = addIgnoreRules('drift:\n  ignore: []\n', [{ ...RULE, reason }]);
    const parsed = parseConfig(result.ok ? result.text : '');
    expect(parsed.ok && parsed.config.drift.ignore[0].reason).toBe(reason);
  });

  it('refuses a config that does not pass the config check, saying why', () => {
    const result = addIgnoreRules('drift:\n  minSnapshots: lots\n', [RULE]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(
      '.github/driftback.yml cannot be edited: it does not pass the config check',
    );
  });
});

describe('configBranch', () => {
  const clusters = ['config', 'config.ignore', 'Config', '0config', 'prod'];
  /** Whether git could hold both refs: neither equals the other nor is a directory of it. */
  const coexist = (a: string, b: string) => a !== b && !a.startsWith(`${b}/`) && !b.startsWith(`${a}/`);

  it('cannot clash with a drift branch, even of a cluster named config', () => {
    const config = parseConfig('pullRequests:\n  branchPrefix: driftback/\n');
    if (!config.ok) throw new Error('config');
    const branch = configBranch('driftback/');
    expect(branch).toBe('driftback/_config/ignore');
    for (const cluster of clusters) {
      for (const namespace of [undefined, 'ignore', 'default', '']) {
        expect(coexist(branch, branchFor(config.config, cluster, namespace))).toBe(true);
      }
    }
  });

  it('takes a first segment no cluster name can have', () => {
    const segment = configBranch('driftback/').slice('driftback/'.length).split('/')[0]!;
    expect(clusterSchema.safeParse({ name: segment }).success).toBe(false);
    expect(clusterSchema.safeParse({ name: 'config' }).success).toBe(true);
  });
});
