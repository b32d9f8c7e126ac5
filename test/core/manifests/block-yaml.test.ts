// The fast reader of plain block YAML reads a file exactly as the yaml library does — values, node
// counts, every node's source location — and leaves every other file, and every error, to the library.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBlockYaml } from '../../../src/core/manifests/block-yaml.js';
import { renderBudget } from '../../../src/core/manifests/render-budget.js';
import { loadYamlFile } from '../../../src/core/manifests/read-yaml.js';
import { lineStartsOf } from '../../../src/core/model/index.js';
import { REPO_ROOT } from '../../support/fixtures.js';
import { readBothWays, withLibraryReader } from '../../support/yaml-readers.js';

const fastReads = (text: string): boolean =>
  readBlockYaml('a.yaml', text, lineStartsOf(text), { type: 'resource' }) !== undefined;

const HELM_LIKE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: "shop"
  labels:
    app.kubernetes.io/version: 6.8.2
    'quoted key': 'it''s'
    "double": "x y"
spec:
  replicas: 2
  ratio: 1.50
  mode: 0755
  hex: 0x1F
  big: 1e3
  yes: yes
  on: on
  nothing: null
  tilde: ~
  empty:
  truth: True
  flow: {}
  list: []
  template:
    spec:
      
      automountServiceAccountToken: false
      # a comment between entries
      hostAliases:
        - hostnames:
          - status.localhost
          ip: 127.0.0.1
      # another
      affinity:
        podAffinity:
          
        podAntiAffinity: 
      containers:
        - name: web   # trailing comment
          command:
            - /bin/bash
            - -ec
            - |
              #!/bin/bash
              echo "start"

                indented more
              \tafter a tab, which is content here
                    
            - |-
              no final newline
          args: []
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
data:
  a.conf: |
    x

  b: "last"
`;

describe('the fast block-YAML reader', () => {
  it('reads Helm-style manifests (comments, blank lines, literals with tabs, quoted and core-schema scalars, several documents) itself, as the library does', () => {
    for (const text of [HELM_LIKE, `${HELM_LIKE}\n\n`]) {
      expect(fastReads(text)).toBe(true);
      const { fast, library } = readBothWays('a.yaml', text);
      expect(fast).toStrictEqual(library);
    }
    const [document] = loadYamlFile('a.yaml', HELM_LIKE).documents;
    const spec = document!.root!.kind === 'map' ? document!.root!.entries.get('spec') : undefined;
    expect(spec?.kind === 'map' && spec.entries.get('mode')).toMatchObject({ value: 493 });
    expect(spec?.kind === 'map' && spec.entries.get('yes')).toMatchObject({ value: 'yes' });
    expect(spec?.kind === 'map' && spec.entries.get('nothing')).toMatchObject({ value: null });
  });

  it.each([
    ['anchors and aliases', 'a: &x\n  b: 1\nc: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a flow collection', 'a: [1, 2]\nb: {c: d}\n'],
    ['a folded scalar', 'a: >\n  b\n  c\n'],
    ['a multi-line plain scalar', 'a: b\n  c\n'],
    ['an escaped double-quoted scalar', 'a: "b\\"c\\n"\n'],
    ['`---` inside a block scalar', 'a: |\n  x\n---\n  y\nb: 1\n'],
    ['an empty document', 'a: 1\n---\n---\nb: 2\n'],
    ['a document of comments only', 'a: 1\n---\n# nothing here\n'],
    ['a comment line deeper than the next entry', 'a:\n  b: 1\n    # deeper\nc: 2\n'],
    ['a merge key', 'base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n'],
    ['a tab outside a literal block', 'a:\tb\n'],
    ['carriage returns', 'a: 1\r\nb: 2\r\n'],
    ['a literal block ending the file without a line break', 'a: |\n  last'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['a nested compact list', 'a:\n- - b\n'],
  ])('leaves %s to the yaml library, with the same result', (_, text) => {
    expect(fastReads(text)).toBe(false);
    const { fast, library } = readBothWays('a.yaml', text);
    expect(fast).toStrictEqual(library);
  });

  it('leaves a repeated key to the yaml library, which refuses it with its line', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  name: d\n';
    expect(fastReads(text)).toBe(false);
    const loaded = loadYamlFile('a.yaml', text);
    expect(loaded.problems).toEqual([expect.objectContaining({ file: 'a.yaml', line: 5 })]);
    expect(loaded.problems[0]!.message).toMatch(/unique/i);
    expect(readBothWays('a.yaml', text).fast).toStrictEqual(readBothWays('a.yaml', text).library);
  });

  it('leaves a nesting deeper than the stack to the yaml library, which reports it as a problem', () => {
    let text = '';
    for (let depth = 0; depth < 2800; depth++) text += `${' '.repeat(depth)}k:\n`;
    expect(fastReads(text)).toBe(false);
    const loaded = loadYamlFile('deep.yaml', text);
    expect(loaded.documents).toEqual([]);
    expect(loaded.problems).toEqual([
      expect.objectContaining({ file: 'deep.yaml', message: expect.stringMatching(/stack/) }),
    ]);
  });

  it('charges the budget what the library read charges: bytes, documents and nodes', () => {
    const fast = renderBudget();
    const library = renderBudget();
    loadYamlFile('a.yaml', HELM_LIKE, undefined, fast);
    withLibraryReader(() => loadYamlFile('a.yaml', HELM_LIKE, undefined, library));
    expect(fast.used()).toEqual(library.used());
    expect(fast.used().documents).toBe(2);
  });

  it('reads every YAML file of the test fixtures as the library does', () => {
    const files = yamlFilesUnder(join(REPO_ROOT, 'test/fixtures'));
    let read = 0;
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      if (!fastReads(text)) continue;
      read += 1;
      const { fast, library } = readBothWays(path, text);
      expect({ path, read: fast }).toStrictEqual({ path, read: library });
    }
    expect(read).toBeGreaterThan(files.length / 3);
  });

  it('reads edited fixture files as the library does, whatever lines are added, removed or moved', () => {
    const texts = yamlFilesUnder(join(REPO_ROOT, 'test/fixtures/upstream/manifests')).map((path) =>
      readFileSync(path, 'utf8'),
    );
    let read = 0;
    for (const text of editedTexts(texts, 1500)) {
      if (!fastReads(text)) continue;
      read += 1;
      const { fast, library } = readBothWays('a.yaml', text);
      expect({ text, read: fast }).toStrictEqual({ text, read: library });
    }
    expect(read).toBeGreaterThan(100);
  });
});

function yamlFilesUnder(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yamlFilesUnder(path, into);
    else if (/\.ya?ml$/.test(name)) into.push(path);
  }
  return into;
}

const PIECES = [
  '# c',
  '',
  '   ',
  '      ',
  '---',
  '- x',
  'k: v',
  '  - y',
  '  z: 1',
  'a: |',
  'a: |-',
  '    t',
  '  "q": 2',
  "  'r''s': 3",
  'n:',
  'n: ~',
  'o: 0755',
  'p: 1.50',
  'f: 1e3',
  'h: 0x1F',
  'b: yes',
  'e: {}',
  'l: []',
  'y: a # c',
  '...',
  '- - a',
  'k: a: b',
  '  # c',
  '    # c',
  'null: 1',
  '1: a',
  '1.0: b',
  'k:  v  ',
  '-',
];

/** `count` texts, each a fixture's first 60 lines with one to three lines added, removed, re-indented or repeated. */
function editedTexts(texts: readonly string[], count: number): string[] {
  let seed = 7;
  const random = (below: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % below;
  };
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const lines = texts[random(texts.length)]!.split('\n').slice(0, 60);
    for (let edits = 1 + random(3); edits > 0; edits--) {
      const at = random(lines.length + 1);
      const kind = random(5);
      if (kind === 0) lines.splice(at, 0, ' '.repeat(random(3) * 2) + PIECES[random(PIECES.length)]!);
      else if (kind === 1) lines.splice(at, 1);
      else if (kind === 2 && at < lines.length) lines[at] = ' '.repeat(1 + random(2)) + lines[at]!;
      else if (kind === 3 && at < lines.length) lines[at] += [' ', ' # c', ':', ' x'][random(4)]!;
      else lines.splice(at, 0, ...lines.slice(at, at + 3));
    }
    out.push(lines.join('\n'));
  }
  return out;
}
