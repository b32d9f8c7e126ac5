// Bad repository content, through the same core calls the App and the CLI make (parseConfig,
// renderManifests): every case is a problem with the file, the line and what to change, the other
// files still render, and nothing throws.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config/index.js';
import { renderManifests } from '../../src/core/manifests/index.js';
import { MAX_MANIFEST_FILE_BYTES } from '../../src/core/manifests/read-yaml.js';
import { formatProblem, type RenderResult, type SourceProblem } from '../../src/core/model/index.js';

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n';

/** Nine levels of nine aliases each: 9^9 (387 million) nodes if expanded. */
function billionLaughs(indent: string): string {
  const lines = [`${indent}l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`];
  for (let i = 1; i < 9; i++)
    lines.push(`${indent}l${i}: &l${i} [${Array.from({ length: 9 }, () => `*l${i - 1}`).join(',')}]`);
  return lines.join('\n');
}

/**
 * Wide instead of deep: one anchored list of `items` scalars and `aliases` references to it. It
 * passes a count of alias references (yaml's maxAliasCount counts 1 per alias here) and expands to
 * items × aliases nodes: 10,000 × 99 is a million.
 */
function wideAliasBomb(indent: string, items = 10_000, aliases = 99): string {
  const list = `${indent}a: &a [${Array.from({ length: items }, () => 'x').join(',')}]`;
  return `${list}\n${indent}b: [${Array.from({ length: aliases }, () => '*a').join(',')}]`;
}

function render(files: Record<string, string>, root = ''): RenderResult {
  return renderManifests(new Map(Object.entries(files)), root);
}

function names(result: RenderResult): string[] {
  return result.objects.map((object) => object.key.name);
}

describe('manifests', () => {
  it.each<[string, string, number, RegExp]>([
    ['invalid YAML', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [oops\n', 5, /invalid YAML/],
    [
      'a duplicate key',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: 1\n  k: 2\n',
      7,
      /invalid YAML: Map keys must be unique/,
    ],
    [
      'a billion-laughs alias bomb',
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n${billionLaughs('  ')}\n`,
      1,
      /^document 0: its aliases expand to more than 100,000 nodes beyond what is written \(an alias bomb\?\); it was not loaded/,
    ],
    [
      'a wide alias bomb (99 aliases of one 10,000-item list)',
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n${wideAliasBomb('  ')}\n`,
      1,
      /^document 0: its aliases expand to more than 100,000 nodes/,
    ],
  ])('%s: a problem at its line; the other files render', (_case, text, line, message) => {
    const result = render({ 'apps/bad.yaml': text, 'apps/fine.yaml': CONFIGMAP });
    expect(names(result)).toEqual(['fine']);
    expect(result.errors[0]).toMatchObject({ file: 'apps/bad.yaml', line, message: expect.stringMatching(message) });
  });

  it('a 50 MB manifest is refused unread, with its size and what to do; the rest renders', () => {
    const doc = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: "' + 'x'.repeat(1000) + '"\n---\n';
    const huge = doc.repeat(Math.ceil((50 * 1000 * 1000) / doc.length));
    const result = render({
      'huge.yaml': huge,
      'kustomization.yaml': 'resources:\n  - huge.yaml\n  - fine.yaml\n',
      'fine.yaml': CONFIGMAP,
    });
    expect(names(result)).toEqual(['fine']);
    expect(result.errors).toEqual([
      {
        file: 'huge.yaml',
        line: 1,
        message: expect.stringMatching(/^file is 4\d\.\d MiB, over the 4 MiB limit .* split it into several files/),
      },
    ]);
  });

  it('the per-file cap counts UTF-8 bytes: at the limit a file renders, one byte over it is refused', () => {
    const padTo = (bytes: number): string => {
      const head = CONFIGMAP + '# ';
      const room = bytes - Buffer.byteLength(head) - 1;
      return head + 'é'.repeat(Math.floor(room / 2)) + 'x'.repeat(room % 2) + '\n';
    };
    const atLimit = padTo(MAX_MANIFEST_FILE_BYTES);
    expect(Buffer.byteLength(atLimit)).toBe(MAX_MANIFEST_FILE_BYTES);
    expect(render({ 'a.yaml': atLimit })).toMatchObject({ errors: [], objects: [expect.anything()] });
    const over = render({ 'a.yaml': padTo(MAX_MANIFEST_FILE_BYTES + 1) });
    expect(over.objects).toEqual([]);
    expect(over.errors[0].message).toMatch(/over the 4 MiB limit/);
  });

  it('a kustomization cycle is reported at the entry that closes it, with the whole loop', () => {
    const result = render(
      {
        'base/kustomization.yaml': 'resources:\n  - cm.yaml\n  - ../overlay\n',
        'base/cm.yaml': CONFIGMAP,
        'overlay/kustomization.yaml': 'resources:\n  - ../base\n',
      },
      'overlay',
    );
    expect(names(result)).toEqual(['fine']);
    expect(result.errors).toEqual([
      {
        file: 'base/kustomization.yaml',
        line: 3,
        field: 'resources',
        message: 'cycle: overlay → base → overlay: remove the entry that points back',
      },
    ]);
  });

  it('a kustomization listing its own directory is a cycle too', () => {
    const result = render({ 'kustomization.yaml': 'resources:\n  - .\n  - cm.yaml\n', 'cm.yaml': CONFIGMAP });
    expect(names(result)).toEqual(['fine']);
    expect(result.errors.map(formatProblem)).toEqual([
      'kustomization.yaml:2: resources: cycle: . → .: remove the entry that points back',
    ]);
  });

  it.each([
    ['a resource', 'resources:\n  - cm.yaml\n  - ../../etc/passwd\n', 3, 'resources'],
    ['a patch file', 'resources:\n  - cm.yaml\npatches:\n  - path: ../../secret-patch.yaml\n', 4, 'patches[0]'],
    [
      'a generator source',
      'resources:\n  - cm.yaml\nconfigMapGenerator:\n  - name: g\n    files:\n      - ../../../id_rsa\n',
      6,
      'configMapGenerator[0]',
    ],
  ])(
    '"../" escaping the repository in %s: refused at its line, nothing outside is read',
    (_case, kustomization, line, field) => {
      const result = render({ 'apps/kustomization.yaml': kustomization, 'apps/cm.yaml': CONFIGMAP }, 'apps');
      expect(names(result)).toContain('fine');
      expect(result.errors).toEqual([
        {
          file: 'apps/kustomization.yaml',
          line,
          field,
          message: expect.stringMatching(/leaves the repository: .*vendor the file into the repository/),
        },
      ]);
      expect(result.filesRead.every((path) => !path.startsWith('..'))).toBe(true);
    },
  );

  it('a render root above the repository renders nothing (not the whole repository)', () => {
    const result = render({ 'apps/cm.yaml': CONFIGMAP }, '../apps');
    expect(result.objects).toEqual([]);
    expect(result.errors).toEqual([
      { file: '../apps', message: expect.stringMatching(/leaves the repository: give a directory inside it/) },
    ]);
  });

  it('a path that climbs and comes back inside the repository is fine (overlays do this)', () => {
    const result = render(
      { 'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base/cm.yaml\n', 'base/cm.yaml': CONFIGMAP },
      'overlays/prod',
    );
    expect(result.errors).toEqual([]);
    expect(names(result)).toEqual(['fine']);
  });
});

describe('.github/driftback.yml', () => {
  function problems(text: string): SourceProblem[] {
    const result = parseConfig(text);
    expect(result.ok).toBe(false);
    return result.ok ? [] : result.problems;
  }

  it.each<[string, string, Omit<Partial<SourceProblem>, 'message'> & { message: RegExp }]>([
    ['invalid YAML', 'clusters:\n  - name: prod\n    path: [apps\n', { line: 4, message: /^invalid YAML: / }],
    [
      'a duplicate key',
      'clusters:\n  - name: prod\n    path: apps\n    path: other\n',
      { line: 4, message: /^invalid YAML: Map keys must be unique/ },
    ],
    [
      'a billion-laughs alias bomb',
      `x-anchors:\n${billionLaughs('  ')}\nclusters: []\n`,
      { line: 1, message: /^invalid YAML: its aliases expand to more than 100,000 nodes/ },
    ],
    [
      'a wide alias bomb',
      `x-anchors:\n${wideAliasBomb('  ')}\nclusters: []\n`,
      { line: 1, message: /^invalid YAML: its aliases expand to more than 100,000 nodes/ },
    ],
    [
      'an unknown key',
      'clusters:\n  - name: prod\n    path: apps\n    stale_after: 30m\n',
      {
        line: 4,
        field: 'clusters[0].stale_after',
        message: /^unknown key stale_after: remove it or check the spelling/,
      },
    ],
    [
      'an unknown top-level key',
      'clusters:\n  - name: prod\n    path: apps\npullrequests:\n  labels: [x]\n',
      { line: 4, field: 'pullrequests', message: /^unknown key pullrequests/ },
    ],
    [
      'a cluster path escaping the repository',
      'clusters:\n  - name: prod\n    path: ../other-repo/apps\n',
      { line: 3, field: 'clusters[0].path', message: /must stay inside the repository/ },
    ],
    // Without a path the cluster's Kustomizations and Applications name the paths; kubectl has none.
    [
      'a kubectl cluster without a path',
      'clusters:\n  - name: prod\n    controller: kubectl\n',
      { line: 2, field: 'clusters[0].path', message: /with controller: kubectl, give the directory CI applies/ },
    ],
    [
      'an unknown controller',
      'clusters:\n  - name: prod\n    controller: jenkins\n',
      { line: 3, field: 'clusters[0].controller', message: /expected flux, argocd or kubectl/ },
    ],
  ])('%s: a problem with file, line and field', (_case, text, expected) => {
    const found = problems(text);
    expect(found[0]).toMatchObject({
      ...expected,
      file: '.github/driftback.yml',
      message: expect.stringMatching(expected.message),
    });
  });

  it('a config that lists no clusters is valid (the CLI needs none); the App and --cluster report the missing cluster', () => {
    for (const text of ['drift:\n  minSnapshots: 3\n', 'clusters: []\n', '']) {
      const result = parseConfig(text);
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.config.clusters ?? []).toEqual([]);
    }
  });
});
