import { describe, expect, it } from 'vitest';
import { parseConfig, parseDuration, defaultConfig } from '../../../src/core/config/index.js';

/** The problems of a config parseConfig refuses (the test fails if it accepts it). */
function refused(text: string) {
  const result = parseConfig(text);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems;
}

describe('parseConfig', () => {
  it('fills every default once', () => {
    const result = parseConfig('clusters:\n  - name: prod-eu\n    path: clusters/prod-eu\n');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.clusters?.[0]).toEqual({
      name: 'prod-eu',
      path: 'clusters/prod-eu',
      defaultNamespace: 'default',
      prune: true,
      staleAfter: '30m',
    });
    expect(result.config.drift).toMatchObject({
      minSnapshots: 2,
      codify: ['modified', 'added', 'extra'],
      causes: ['human'],
      resolveConflicts: 'report',
    });
    expect(result.config.plan.protect).toEqual(['PersistentVolumeClaim', 'CustomResourceDefinition', 'Namespace']);
    expect(result.config.pullRequests).toEqual({
      groupBy: 'cluster',
      labels: ['driftback'],
      branchPrefix: 'driftback/',
      newResourcePath: '{cluster_path}/{namespace}/{kind}-{name}.yaml',
    });
  });

  it('reports each bad value and unknown key with its path and line', () => {
    const text = [
      'clusters:',
      '  - name: prod',
      '    path: clusters/prod',
      '    staleAfter: 30x',
      '    prunne: true',
      'drift:',
      '  ignore:',
      '    - paths: [/spec/replicas]',
      '',
    ].join('\n');
    const problems = refused(text);
    expect(problems).toEqual([
      {
        file: '.github/driftback.yml',
        line: 4,
        field: 'clusters[0].staleAfter',
        message: 'expected a duration like 30m',
      },
      {
        file: '.github/driftback.yml',
        line: 5,
        field: 'clusters[0].prunne',
        message: 'unknown key prunne: remove it or check the spelling',
      },
      {
        file: '.github/driftback.yml',
        line: 8,
        field: 'drift.ignore[0].reason',
        message: 'every ignore rule says why (reason: …)',
      },
    ]);
  });

  it('ignore and allowRisky paths: fields as driftback prints them or JSON pointers; a bad one says what to write', () => {
    const text = [
      'drift:',
      '  ignore:',
      '    - paths: [/spec/replicas, "spec.template.spec.containers[app].image", "spec.template.spec.containers[*]"]',
      '      reason: ok',
      '    - paths: ["spec.template.spec.containers[name=app].image"]',
      '      reason: by key',
      '  allowRisky:',
      '    - code: image-registry',
      '      paths: ["spec..image"]',
      '      reason: mirror',
      '',
    ].join('\n');
    const problems = refused(text);
    expect(problems).toEqual([
      {
        file: '.github/driftback.yml',
        line: 5,
        field: 'drift.ignore[1].paths[0]',
        message:
          "`spec.template.spec.containers[name=app].image` is not a field: write `[app]`, not `[name=app]`: a list item is named by its key's value, as driftback prints it (containers[app]). " +
          'Write the field as driftback prints it (spec.template.spec.containers[app].image) or a JSON pointer (/spec/replicas)',
      },
      {
        file: '.github/driftback.yml',
        line: 9,
        field: 'drift.allowRisky[0].paths[0]',
        message:
          '`spec..image` is not a field: expected a field name at character 6: quote a key that is not a plain word, as in metadata.annotations["app.kubernetes.io/name"]. ' +
          'Write the field as driftback prints it (spec.template.spec.containers[app].image) or a JSON pointer (/spec/replicas)',
      },
    ]);
  });

  it('reports invalid YAML and duplicate keys with a line instead of throwing', () => {
    const bad = parseConfig('clusters:\n  - name: a\n    path: [x\n');
    expect(bad.ok).toBe(false);
    const dup = parseConfig('drift:\n  minSnapshots: 1\n  minSnapshots: 2\n');
    expect(dup.ok).toBe(false);
    if (!dup.ok) expect(dup.problems[0].line).toBe(3);
  });

  it('refuses a billion-laughs alias bomb', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    ].join('\n');
    const result = parseConfig(bomb);
    expect(result.ok).toBe(false);
  });

  it('rejects paths that leave the repository and clusters listed twice', () => {
    const problems = refused('clusters:\n  - name: a\n    path: ../x\n  - name: a\n    path: y\n');
    expect(problems.map((p) => p.field)).toEqual(['clusters[0].path', 'clusters[1].name']);
  });

  it('a cluster names its controller, and needs no path when its controller objects name the paths', () => {
    const result = parseConfig(
      'clusters:\n  - name: a\n    controller: flux\n  - name: b\n    path: argocd\n    controller: argocd\n  - name: c\n',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.clusters?.map((cluster) => [cluster.name, cluster.path, cluster.controller])).toEqual([
      ['a', undefined, 'flux'],
      ['b', 'argocd', 'argocd'],
      ['c', undefined, undefined],
    ]);
  });

  it('kubectl applies a path, which must then be given; an unknown controller is named', () => {
    const problems = refused(
      'clusters:\n  - name: a\n    controller: kubectl\n  - name: b\n    path: x\n    controller: helm\n',
    );
    expect(problems.map((p) => [p.field, p.message])).toEqual([
      ['clusters[0].path', 'with controller: kubectl, give the directory CI applies (path: …)'],
      ['clusters[1].controller', 'expected flux, argocd or kubectl'],
    ]);
  });

  it('an empty file is the defaults', () => {
    const result = parseConfig('');
    expect(result).toEqual({ ok: true, config: defaultConfig() });
  });
});

describe('parseDuration', () => {
  it.each([
    ['30s', 30],
    ['30m', 1800],
    ['2h', 7200],
    ['1d', 86400],
    ['30', undefined],
    ['m', undefined],
  ])('%s → %s', (text, seconds) => expect(parseDuration(text)).toBe(seconds));
});
