// Bad input is reported with file and line, and the rest of the repository still renders.
import { describe, expect, it } from 'vitest';
import { newParseCache, renderBudget, renderManifests } from '../../../src/core/manifests/index.js';
import { fileText, formatProblem } from '../../../src/core/model/index.js';
import { tree } from './helpers.js';

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n';

describe('plain manifests: problems and skipped documents', () => {
  it.each([
    [
      'an unclosed flow sequence (reported where the file ends)',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n',
      5,
    ],
    ['a duplicate key', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n', 5],
    ['a tab-indented mapping', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n', 4],
  ])('reports %s with file and line, and still renders the other files', (_case, text, line) => {
    const result = renderManifests(
      new Map([
        ['bad.yaml', text],
        ['good.yaml', CONFIGMAP],
      ]),
      '',
    );
    expect(result.objects.map((o) => o.key.name)).toEqual(['ok']);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors[0].file).toBe('bad.yaml');
    expect(result.errors[0].line).toBe(line);
  });

  it('refuses an alias bomb without expanding it', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const bomb = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  ${levels.join('\n  ')}\n`;
    const result = renderManifests(
      new Map([
        ['bomb.yaml', bomb],
        ['good.yaml', CONFIGMAP],
      ]),
      '',
    );
    expect(result.objects.map((o) => o.key.name)).toEqual(['ok']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ file: 'bomb.yaml', line: 1 });
    expect(result.errors[0].message).toMatch(/alias/);
  });

  it('keeps a few aliases (anchors are legitimate YAML)', () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchored\n  labels: &l\n    app: x\n  annotations: *l\n';
    const result = renderManifests(new Map([['a.yaml', text]]), '');
    expect(result.errors).toEqual([]);
    expect(result.objects[0].object.metadata.annotations).toEqual({ app: 'x' });
  });

  it('skips YAML that is not a Kubernetes object, with a reason, and expands List kinds', () => {
    const files = tree({
      'values.yaml': 'replicaCount: 2\nimage: nginx\n',
      'scalar.yaml': 'just a string\n',
      'list.json': JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-list' } },
          { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' } },
        ],
      }),
      'empty.yaml': '---\n# only a comment\n---\n',
      'README.md': '# not a manifest',
    });
    const result = renderManifests(files, '');
    expect(result.errors).toEqual([]);
    expect(result.objects.map((o) => `${o.key.kind}/${o.key.name}`)).toEqual(['ConfigMap/from-list', 'Service/svc']);
    expect(result.skipped).toEqual([
      { file: 'scalar.yaml', document: 0, reason: expect.stringMatching(/not a Kubernetes object/) },
      { file: 'values.yaml', document: 0, reason: expect.stringMatching(/no apiVersion/) },
    ]);
    expect(result.filesRead).not.toContain('README.md');
  });

  it('keeps an object without apiVersion in a kustomization, as kustomize does, and expands an untyped List', () => {
    // kubectl kustomize 5.7.1 prints both, with their prefix and no apiVersion.
    const files = tree({
      'kustomization.yaml': 'namePrefix: p-\nresources:\n  - objects.yaml\n',
      'objects.yaml':
        'kind: Gadget\nmetadata:\n  name: g\n---\nkind: List\nitems:\n  - kind: Widget\n    metadata:\n      name: w\n',
    });
    const result = renderManifests(files, '', { defaultNamespace: null });
    expect(result.errors).toEqual([]);
    expect(result.objects.map((o) => o.object)).toEqual([
      { kind: 'Gadget', metadata: { name: 'p-g' } },
      { kind: 'Widget', metadata: { name: 'p-w' } },
    ]);
  });

  it('refuses an env file and a resource that are not UTF-8, as kustomize does', () => {
    const latin1 = (text: string) => fileText(Buffer.from(text, 'latin1'));
    const files = new Map([
      ['kustomization.yaml', 'resources:\n  - cm.yaml\nconfigMapGenerator:\n  - name: env\n    envs: [app.env]\n'],
      ['app.env', latin1('A=1\nCITY=Z\u00fcrich\n')],
      ['cm.yaml', latin1('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caf\u00e9\n')],
    ]);
    const problems = renderManifests(files, '').errors.map(formatProblem);
    expect(problems).toContainEqual(
      expect.stringMatching(/env file "app\.env" has bytes that are not UTF-8 on line 2/),
    );
    expect(problems).toContainEqual(expect.stringMatching(/^cm\.yaml: cannot parse YAML: the file is not UTF-8 text/));
  });

  it('refuses a document of a kustomization that is no object, as kustomize does', () => {
    const files = tree({
      'kustomization.yaml': 'resources:\n  - values.yaml\n  - list.yaml\n',
      'values.yaml': 'replicaCount: 2\n',
      'list.yaml': '- a\n- b\n',
    });
    expect(renderManifests(files, '').errors.map(formatProblem)).toEqual([
      "values.yaml:1: not a Kubernetes object: no kind: kustomize refuses it (missing Resource metadata); take it out of the kustomization's resources or make it an object",
      "list.yaml:1: not a Kubernetes object: the document is a list, not a mapping: kustomize refuses it (missing Resource metadata); take it out of the kustomization's resources or make it an object",
    ]);
  });

  it('reports an object without a name', () => {
    const result = renderManifests(
      new Map([['a.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {}\n']]),
      '',
    );
    expect(result.objects).toEqual([]);
    expect(result.errors[0]).toMatchObject({ file: 'a.yaml', line: 1, field: 'metadata.name' });
  });

  it('reports a root that does not exist', () => {
    expect(renderManifests(new Map([['a.yaml', CONFIGMAP]]), 'clusters/nope').errors[0]).toMatchObject({
      file: 'clusters/nope',
    });
  });
});

describe('kustomize: problems', () => {
  const RESOURCE = { 'app/cm.yaml': CONFIGMAP };

  it.each([
    ['validators', 'validators:\n- check.yaml', 3],
    ['resourcez', 'resourcez: []', 3],
  ])('names the file, line and field of unsupported %s', (fieldName, snippet, line) => {
    const files = tree({ ...RESOURCE, 'app/kustomization.yaml': `resources:\n- cm.yaml\n${snippet}\n` });
    const result = renderManifests(files, 'app');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ file: 'app/kustomization.yaml', line, field: fieldName });
    expect(formatProblem(result.errors[0])).toMatch(new RegExp(`^app/kustomization.yaml:${line}: ${fieldName}: `));
  });

  it.each([
    ['../../outside', /leaves the repository/],
    ['missing.yaml', /does not exist/],
    ['plain-dir', /no kustomization/],
  ])('reports the resources entry %s with its line', (entry, message) => {
    const files = tree({
      ...RESOURCE,
      'app/plain-dir/x.yaml': CONFIGMAP,
      'app/kustomization.yaml': `resources:\n- cm.yaml\n- ${entry}\n`,
    });
    const result = renderManifests(files, 'app');
    expect(result.objects.map((o) => o.key.name)).toEqual(['ok']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ file: 'app/kustomization.yaml', line: 3, field: 'resources' });
    expect(result.errors[0].message).toMatch(message);
  });

  it('reports a kustomization cycle instead of recursing forever', () => {
    const files = tree({
      'a/kustomization.yaml': 'resources:\n- cm.yaml\n- ../b\n',
      'a/cm.yaml': CONFIGMAP,
      'b/kustomization.yaml': 'resources:\n- ../a\n',
    });
    const result = renderManifests(files, 'a');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ file: 'b/kustomization.yaml', line: 2, field: 'resources' });
    expect(result.errors[0].message).toMatch(/cycle: a → b → a/);
    expect(result.objects.map((o) => o.key.name)).toEqual(['ok']);
  });

  // A targeted patch that matches nothing is no error to kustomize (it patches what matches).
  it('reports a missing patch file and a duplicate resource, not a targeted patch that matches nothing', () => {
    const files = tree({
      ...RESOURCE,
      'app/again.yaml': CONFIGMAP,
      'app/kustomization.yaml': `
        resources:
        - cm.yaml
        - again.yaml
        patches:
        - path: nowhere.yaml
        - target:
            kind: Deployment
          patch: |-
            - op: remove
              path: /spec
      `,
    });
    const result = renderManifests(files, 'app');
    expect(result.errors.map((e) => [e.file, e.line, e.field])).toEqual([
      ['app/again.yaml', 1, undefined],
      ['app/kustomization.yaml', 5, 'patches[0]'],
    ]);
    expect(result.objects).toHaveLength(1);
  });

  it('reports invalid YAML in a kustomization file with its line', () => {
    const result = renderManifests(tree({ 'app/kustomization.yaml': 'resources:\n  - a.yaml\n - b.yaml\n' }), 'app');
    expect(result.errors[0].file).toBe('app/kustomization.yaml');
    expect(result.errors[0].line).toBeGreaterThanOrEqual(2);
  });
});

describe('kustomize: what is not rendered', () => {
  const RESOURCE = { 'app/cm.yaml': CONFIGMAP };

  it.each([
    ['helmCharts', 'helmCharts:\n- name: podinfo\n  repo: https://example.invalid', 3, 'helmCharts', /helm/],
    ['a remote resource', '- github.com/acme/base?ref=v1', 3, 'resources', /remote target/],
    [
      'an exec plugin',
      'generators:\n- |-\n  apiVersion: example.com/v1\n  kind: Sops',
      4,
      'generators[0]',
      /plugins run programs/,
    ],
  ])(
    'renders everything but %s, which is named with its file, line and the namespace it targets',
    (_name, snippet, line, field, reason) => {
      const files = tree({
        ...RESOURCE,
        'app/kustomization.yaml': `namespace: shop\nresources:\n- cm.yaml\n${snippet}\n`,
      });
      const result = renderManifests(files, 'app');
      expect(result.errors).toEqual([]);
      expect(result.objects.map((o) => o.key.name)).toEqual(['ok']);
      expect(result.notRendered).toEqual([
        expect.objectContaining({
          file: 'app/kustomization.yaml',
          line: line + 1,
          field,
          namespace: 'shop',
          reason: expect.stringMatching(reason),
        }),
      ]);
    },
  );

  it('reports a strategic merge patch without a target as not rendered when parts are not, not as an error', () => {
    const files = tree({
      ...RESOURCE,
      'app/p.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: from-chart\nspec:\n  replicas: 2\n',
      'app/kustomization.yaml': 'resources:\n- cm.yaml\npatches:\n- path: p.yaml\nhelmCharts:\n- name: podinfo\n',
    });
    const result = renderManifests(files, 'app');
    expect(result.errors).toEqual([]);
    expect(result.notRendered?.map((n) => n.field)).toEqual(['helmCharts', 'patches[0]']);
  });
});

describe('kustomize: labels entries', () => {
  it('writes a label at its own fields too, creating them where the spec says so', () => {
    const files = tree({
      'app/cm.yaml': CONFIGMAP,
      'app/kustomization.yaml':
        'resources:\n- cm.yaml\nlabels:\n- pairs:\n    a: b\n  fields:\n  - path: spec/x\n    create: true\n  - path: spec/y\n',
    });
    const result = renderManifests(files, 'app');
    expect(result.errors).toEqual([]);
    expect(result.objects[0].object).toMatchObject({ metadata: { labels: { a: 'b' } }, spec: { x: { a: 'b' } } });
    expect((result.objects[0].object.spec as Record<string, unknown>).y).toBeUndefined();
  });
});

describe('alias expansion is bounded by the nodes it produces', () => {
  const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchors\ndata:\n${data}`;

  it('keeps 200 aliases of a small anchor (references are not what is bounded)', () => {
    const data = `  base: &b {k: v}\n  list: [${Array.from({ length: 200 }, () => '*b').join(',')}]\n`;
    const result = renderManifests(new Map([['a.yaml', configMap(data)]]), '');
    expect(result.errors).toEqual([]);
    expect((result.objects[0].object.data as { list: unknown[] }).list).toHaveLength(200);
  });

  it('refuses 99 aliases of one 10,000-item list (a million nodes), without expanding it', () => {
    const data = `  a: &a [${Array.from({ length: 10_000 }, () => 'x').join(',')}]\n  b: [${Array.from({ length: 99 }, () => '*a').join(',')}]\n`;
    const result = renderManifests(
      new Map([
        ['bomb.yaml', configMap(data)],
        ['good.yaml', CONFIGMAP],
      ]),
      '',
    );
    expect(result.objects.map((o) => o.key.name)).toEqual(['ok']);
    expect(result.errors).toMatchObject([
      {
        file: 'bomb.yaml',
        line: 1,
        message: expect.stringMatching(/aliases expand to more than 100,000 nodes beyond what is written/),
      },
    ]);
  });
});

describe("a job's render budget", () => {
  const many = (count: number) =>
    new Map(
      Array.from({ length: count }, (_, i) => [
        `apps/cm-${i}.yaml`,
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  k: v\n`,
      ]),
    );

  it('stops a render whose files hold more nodes than its budget, with one problem and no objects', () => {
    const result = renderManifests(many(50), 'apps', { budget: renderBudget({ maxNodes: 300 }) });
    expect(result.objects).toEqual([]);
    expect(result.errors).toEqual([
      {
        file: 'apps',
        message: expect.stringMatching(
          /^the render stopped at apps\/cm-\d+\.yaml: the files this job reads hold more than 300 YAML nodes, its budget; split the cluster path/,
        ),
      },
    ]);
    expect(renderManifests(many(50), 'apps', { budget: renderBudget({ maxNodes: 1000 }) }).objects).toHaveLength(50);
  });

  it('counts documents and bytes as well as nodes', () => {
    const documents = renderManifests(many(50), 'apps', { budget: renderBudget({ maxDocuments: 20 }) });
    expect(documents.errors[0].message).toMatch(/this job reads more than 20 documents, its budget/);
    const bytes = renderManifests(many(50), 'apps', { budget: renderBudget({ maxBytes: 1024 }) });
    expect(bytes.errors[0].message).toMatch(/this job reads more than 0 MiB of files, its budget/);
  });

  it('stops a render that runs past its time budget, measured on the clock it is given', () => {
    let now = 0;
    const clock = () => (now += 1000);
    const budget = renderBudget({ time: { budgetMs: 10_000, now: clock } });
    const result = renderManifests(many(50), 'apps', { budget });
    expect(result.objects).toEqual([]);
    expect(result.errors[0].message).toBe(
      'render stopped after 10 s, the time limit of one job, at apps/cm-13.yaml; split the cluster path or remove what it should not read',
    );
  });

  it('one budget for every render of a job: renders each under the limit stop once together they are over', () => {
    const budget = renderBudget({ maxNodes: 500 });
    const first = renderManifests(many(30), 'apps', { budget });
    expect(first.objects).toHaveLength(30);
    expect(budget.used()).toMatchObject({ documents: 30 });
    const second = renderManifests(many(30), 'apps', { budget });
    expect(second.stopped).toBe(true);
    expect(renderManifests(many(30), 'apps').objects).toHaveLength(30);
  });

  it('charges a cached parse like a fresh one', () => {
    const cache = newParseCache();
    const budget = renderBudget({ maxNodes: 300 });
    expect(renderManifests(many(10), 'apps', { cache, budget }).objects).toHaveLength(10);
    const used = budget.used();
    renderManifests(many(10), 'apps', { cache, budget });
    expect(budget.used()).toEqual({ nodes: used.nodes * 2, documents: 20, bytes: used.bytes * 2 });
  });
});

describe('patterns from a repository are RE2 (kustomize api/types/selector.go, Go regexp/syntax)', () => {
  const NAME = 'a'.repeat(44);
  const files = (target: string, replacementTarget = 'api') =>
    tree({
      'app/kustomization.yaml': `
        resources: [cm.yaml]
        patches:
          - target: {kind: ConfigMap, name: "${target}"}
            patch: |
              - op: add
                path: /data/patched
                value: "yes"
        replacements:
          - source: {kind: ConfigMap, name: ${NAME}, fieldPath: metadata.name}
            targets:
              - select: {kind: ConfigMap, name: "${replacementTarget}"}
                fieldPaths: [data.copied]
      `,
      'app/cm.yaml': `
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: ${NAME}}
        data: {}
      `,
    });

  it('a pattern that backtracks exponentially, next to a 44-character name, renders at once', () => {
    const result = renderManifests(files('(a+)+b'), 'app');
    expect(result.errors).toEqual([]);
    expect(result.objects[0].object.data).toEqual({});
  });

  it('anchors a target as kustomize does: a.* selects the name, a alone does not', () => {
    expect(renderManifests(files('a.*'), 'app').objects[0].object.data).toEqual({ patched: 'yes' });
    expect(renderManifests(files('a'), 'app').objects[0].object.data).toEqual({});
  });

  it('a patch target RE2 refuses is an error of the kustomization, with its line', () => {
    const result = renderManifests(files('(a)\\\\1'), 'app');
    expect(formatProblem(result.errors[0])).toBe(
      'app/kustomization.yaml:3: patches[0]: target.name "(a)\\1": error parsing regexp: invalid escape sequence: `\\1` (patterns are RE2, as in kustomize and Argo CD: no backreferences or lookaround)',
    );
  });

  it('a replacement target RE2 refuses stops the replacement with its reason', () => {
    const result = renderManifests(files('x', '(?=a)a'), 'app');
    expect(result.errors.map((e) => e.message).join('\n')).toContain(
      'select.name "(?=a)a": error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    );
  });
});
