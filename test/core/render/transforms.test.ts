// The pieces of a source's render, case by case: Flux's envsubst (fluxcd/pkg envsubst, kustomize_varsub.go),
// the kustomization Flux generates for a path without one (fluxcd/pkg kustomize/kustomize_generator.go),
// Argo CD's directory globs (gobwas/glob without separators, reposerver/repository/repository.go).
import { describe, expect, it } from 'vitest';
import { directoryFiles } from '../../../src/core/render/argocd-render.js';
import { compileArgoGlob } from '../../../src/core/patterns/index.js';
import { expand, type VariableValue } from '../../../src/core/render/envsubst.js';
import { generatedResources } from '../../../src/core/render/wrapper.js';

describe("post-build substitution: Flux's envsubst", () => {
  // fluxcd/pkg envsubst (parse/parse.go, funcs.go, template.go): what each expression gives.
  const values: Record<string, string> = {
    name: 'kind-dev',
    empty: '',
    file: 'bash.string.txt',
    path: '/home/ops/apps/podinfo.yaml',
    mixed: 'abcABC123ABCabc',
    slashed: 'team/app',
  };
  const lookup = (name: string): VariableValue =>
    name === 'token'
      ? { type: 'unknown', from: ['Secret flux-system/cluster-secret-vars'] }
      : name in values
        ? { type: 'set', value: values[name]! }
        : { type: 'unset' };
  it.each([
    ['${name}', 'kind-dev'],
    ['cluster ${name} (${missing})', 'cluster kind-dev ()'],
    ['${missing:=fallback}', 'fallback'],
    ['${missing:-fallback}', 'fallback'],
    ['${missing=fallback}', 'fallback'],
    ['${empty:=fallback}', 'fallback'],
    ['${missing:=${name}-suffix}', 'kind-dev-suffix'],
    ['${missing:=pre${name^^}}', 'preKIND-DEV'],
    ['$name stays', '$name stays'],
    ['$${name}', '${name}'],
    ['$$HOME and $$', '$HOME and $'],
    ['${name^}', 'Kind-dev'],
    ['${name^^}', 'KIND-DEV'],
    ['${mixed,,}', 'abcabc123abcabc'],
    ['${mixed,}', 'abcABC123ABCabc'],
    ['${#name}', '8'],
    ['${path:10}', 'apps/podinfo.yaml'],
    ['${path:10:4}', 'apps'],
    ['${path:-4}', '/home/ops/apps/podinfo.yaml'],
    ['${file#*.}', 'string.txt'],
    ['${file##*.}', 'txt'],
    ['${file%.*}', 'bash.string'],
    ['${file%%.*}', 'bash'],
    ['${mixed/abc/xyz}', 'xyzABC123ABCabc'],
    ['${mixed//abc/xyz}', 'xyzABC123ABCxyz'],
    ['${mixed/#abc/XYZ}', 'XYZABC123ABCabc'],
    ['${mixed/%abc/XYZ}', 'abcABC123ABCXYZ'],
    ['${slashed/\\//-}', 'team-app'],
    ['${file/./}', 'bashstring.txt'],
  ])('%s → %s', (text, expected) => {
    expect(expand(text, lookup, false)).toEqual({ text: expected, unknown: new Map(), unset: [] });
  });

  it('a value the snapshot does not hold is named with its source, never taken as empty', () => {
    expect(expand('Bearer ${token}', lookup, true).unknown).toEqual(
      new Map([['token', ['Secret flux-system/cluster-secret-vars']]]),
    );
  });

  it('strict mode: an unset variable read without a default fails; a default or a set empty value does not', () => {
    for (const text of [
      '${missing}',
      '${missing^^}',
      '${#missing}',
      '${missing:0:2}',
      '${missing/a/b}',
      '${missing%x}',
    ])
      expect(expand(text, lookup, true).unset).toEqual(['missing']);
    for (const text of ['${missing:-x}', '${missing:=x}', '${missing=x}', '${empty}'])
      expect(expand(text, lookup, true).unset).toEqual([]);
  });

  it.each([
    ['${}', 'unable to parse variable name'],
    ['${name', 'missing closing brace'],
    ['${name-fallback}', 'missing closing brace'],
    ['${@}', 'unable to parse variable name'],
    ['${name:=fallback', 'unable to parse substitution within function'],
  ])('%s does not parse: %s (the build fails)', (text, message) => {
    expect(() => expand(text, lookup, false)).toThrow(message);
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
