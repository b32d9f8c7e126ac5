// The pieces of a source's render, case by case: Flux's envsubst (fluxcd/pkg envsubst, kustomize_varsub.go),
// the kustomization Flux generates for a path without one (fluxcd/pkg kustomize/kustomize_generator.go),
// Argo CD's directory globs (gobwas/glob without separators, reposerver/repository/repository.go).
import { describe, expect, it } from 'vitest';
import { directoryFiles } from '../../../src/core/render/argocd-render.js';
import { compileArgoGlob } from '../../../src/core/patterns/index.js';
import { substituteText, type Variables } from '../../../src/core/render/flux-substitute.js';
import { generatedResources } from '../../../src/core/render/wrapper.js';

describe('post-build substitution', () => {
  const variables: Variables = {
    values: new Map([
      ['name', 'kind-dev'],
      ['empty', ''],
    ]),
    unknown: new Map([['token', 'flux-system/cluster-secret-vars']]),
  };
  it.each([
    ['${name}', 'kind-dev', []],
    ['cluster ${name} (${missing})', 'cluster kind-dev ()', []],
    ['${missing:=fallback}', 'fallback', []],
    ['${missing:-fallback}', 'fallback', []],
    ['${empty:=fallback}', 'fallback', []],
    ['${empty=fallback}', '', []],
    ['$name stays', '$name stays', []],
    ['$${name}', '${name}', []],
    ['Bearer ${token}', 'Bearer ${token}', ['token']],
  ])('%s → %s', (text, expected, unknown) => {
    const secrets = unknown.map(() => 'flux-system/cluster-secret-vars');
    expect(substituteText(text, variables)).toEqual({ text: expected, unknown, secrets });
  });
});

describe('the kustomization Flux generates', () => {
  const files = new Map([
    ['clusters/dev/apps.yaml', ''],
    ['clusters/dev/vars.yml', ''],
    ['clusters/dev/README.md', ''],
    ['clusters/dev/flux-system/kustomization.yaml', ''],
    ['clusters/dev/flux-system/gotk-sync.yaml', ''],
    ['clusters/dev/flux-system/nested/other.yaml', ''],
    ['clusters/dev/extra/more.yaml', ''],
    ['clusters/dev/.github/workflow.yaml', ''],
  ]);
  it('lists every YAML file, a directory with a kustomization as one resource, and leaves .github out', () => {
    expect(generatedResources(files, 'clusters/dev')).toEqual([
      'apps.yaml',
      'extra/more.yaml',
      'flux-system',
      'vars.yml',
    ]);
  });
});

describe('Argo CD directory sources', () => {
  it.each([
    ['*.yaml', 'a.yaml', true],
    ['*.yaml', 'sub/a.yaml', true],
    ['{a,b}.yaml', 'b.yaml', true],
    ['{a,b}.yaml', 'c.yaml', false],
    ['config-?.json', 'config-1.json', true],
    ['[!a]*.yaml', 'a.yaml', false],
    ['[!a]*.yaml', 'b.yaml', true],
    // A glob that a backtracking RegExp takes exponential time on: RE2 answers at once.
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', `${'a'.repeat(200)}.yaml`, false],
  ])('glob %s matches %s: %s', (pattern, path, expected) => {
    const compiled = compileArgoGlob(pattern);
    expect(compiled.ok && compiled.pattern.test(path)).toBe(expected);
  });

  const files = new Map([
    ['web/a.yaml', 'kind: A'],
    ['web/b.json', '{}'],
    ['web/c.txt', ''],
    ['web/sub/d.yaml', 'kind: D'],
    ['web/skip.yaml', '# +argocd:skip-file-rendering'],
  ]);
  it('reads the top level without recurse, everything with it, then exclude and include', () => {
    expect(directoryFiles(files, 'web', undefined)).toEqual({ files: ['web/a.yaml', 'web/b.json'] });
    expect(directoryFiles(files, 'web', { recurse: true })).toEqual({
      files: ['web/a.yaml', 'web/b.json', 'web/sub/d.yaml'],
    });
    expect(directoryFiles(files, 'web', { recurse: true, exclude: 'sub/*' })).toEqual({
      files: ['web/a.yaml', 'web/b.json'],
    });
    expect(directoryFiles(files, 'web', { recurse: true, include: '*.yaml' })).toEqual({
      files: ['web/a.yaml', 'web/sub/d.yaml'],
    });
  });

  it('a glob RE2 cannot compile is the error of its source, naming the field', () => {
    const chosen = directoryFiles(files, 'web', { recurse: true, include: '[z-a].yaml' });
    expect(chosen).toEqual({
      problem: expect.stringMatching(
        /^spec\.source\.directory\.include: glob "\[z-a\]\.yaml": error parsing regexp: invalid character class range/,
      ),
    });
  });
});
