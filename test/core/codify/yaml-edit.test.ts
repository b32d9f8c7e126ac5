import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { removeValueAt, setScalarAt, setValueAt } from '../../../src/core/codify/yaml-edit.js';
import { readFixture } from '../../support/fixtures.js';

function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { removed: a.slice(head, a.length - tail), added: b.slice(head, b.length - tail) };
}

function edited(result: ReturnType<typeof setValueAt>): string {
  if (!result.ok) throw new Error(result.reason);
  return result.text;
}

const CART = readFixture('manifests/microservices-demo/kubernetes-manifests/cartservice.yaml');
const GUESTBOOK = readFixture('manifests/kubernetes-examples/web/guestbook/frontend-deployment.yaml');
const RELEASE = readFixture('manifests/flux2-kustomize-helm-example/apps/base/podinfo/release.yaml');

describe('setValueAt: scalars keep their line, comment and quoting', () => {
  const cases: Array<{
    name: string;
    text: string;
    doc: number;
    path: Parameters<typeof setValueAt>[2];
    value: unknown;
    removed: string[];
    added: string[];
  }> = [
    {
      name: 'double-quoted string stays double-quoted',
      text: CART,
      doc: 0,
      path: [
        'spec',
        'template',
        'spec',
        'containers',
        { key: { name: 'server' } },
        'env',
        { key: { name: 'REDIS_ADDR' } },
        'value',
      ],
      value: 'redis-cart:6380',
      removed: ['          value: "redis-cart:6379"'],
      added: ['          value: "redis-cart:6380"'],
    },
    {
      name: 'plain number in a later document',
      text: CART,
      doc: 3,
      path: [
        'spec',
        'template',
        'spec',
        'containers',
        { key: { name: 'redis' } },
        'ports',
        { key: { containerPort: 6379, protocol: 'TCP' } },
        'containerPort',
      ],
      value: 6380,
      removed: ['        - containerPort: 6379'],
      added: ['        - containerPort: 6380'],
    },
    {
      name: 'image keeps its end-of-line comment',
      text: GUESTBOOK,
      doc: 0,
      path: ['spec', 'replicas'],
      value: 5,
      removed: [GUESTBOOK.split('\n').find((l) => l.includes('replicas:'))!],
      added: [
        GUESTBOOK.split('\n')
          .find((l) => l.includes('replicas:'))!
          .replace(/\d+/, '5'),
      ],
    },
    {
      name: 'a plain string that would read as a number is quoted',
      text: RELEASE,
      doc: 0,
      path: ['spec', 'values', 'redis', 'tag'],
      value: '8.7',
      removed: ['      tag: 8.6.2'],
      added: ['      tag: "8.7"'],
    },
    {
      name: 'a string that reads as a YAML 1.1 boolean is quoted',
      text: RELEASE,
      doc: 0,
      path: ['spec', 'install', 'strategy', 'name'],
      value: 'yes',
      removed: ['      name: RetryOnFailure'],
      added: ['      name: "yes"'],
    },
  ];
  it.each(cases)('$name', ({ text, doc, path, value, removed, added }) => {
    const after = edited(setValueAt(text, doc, path, value));
    expect(changedLines(text, after)).toEqual({ removed, added });
    expect(parseAllDocuments(after)[doc].getIn(path.map((s) => (typeof s === 'string' ? s : 0)))).toBeDefined();
  });

  it('setScalarAt rewrites the node a source map points at', () => {
    const start = RELEASE.indexOf('50m');
    const result = setScalarAt(RELEASE, [start, start + 3], '10m');
    expect(result.ok && result.text).toBe(RELEASE.replace('interval: 50m', 'interval: 10m'));
  });
});

describe("setValueAt: adding keys and list items in the block's own style", () => {
  it('adds an env var to the right container in a non-indented sequence', () => {
    const path = [
      'spec',
      'template',
      'spec',
      'containers',
      { key: { name: 'server' } },
      'env',
      { key: { name: 'LOG_LEVEL' } },
    ];
    const after = edited(setValueAt(CART, 0, path, { name: 'LOG_LEVEL', value: 'debug' }));
    expect(changedLines(CART, after)).toEqual({
      removed: [],
      added: ['        - name: LOG_LEVEL', '          value: debug'],
    });
    const env = parseAllDocuments(after)[0].toJS().spec.template.spec.containers[0].env;
    expect(env).toEqual([
      { name: 'REDIS_ADDR', value: 'redis-cart:6379' },
      { name: 'LOG_LEVEL', value: 'debug' },
    ]);
  });

  it("adds an item to an indented sequence at its siblings' indentation", () => {
    const path = ['spec', 'values', 'httpRoute', 'hostnames', { index: 1 }];
    const after = edited(setValueAt(RELEASE, 0, path, 'podinfo.example'));
    expect(changedLines(RELEASE, after)).toEqual({ removed: [], added: ['        - podinfo.example'] });
  });

  it('creates missing intermediate maps and lists', () => {
    const path = ['spec', 'template', 'spec', 'containers', { key: { name: 'redis' } }, 'env', { key: { name: 'A' } }];
    const after = edited(setValueAt(CART, 3, path, { name: 'A', value: '1' }));
    expect(changedLines(CART, after).removed).toEqual([]);
    expect(parseAllDocuments(after)[3].toJS().spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
    ]);
    expect(after.replace(/\n *env:\n.*\n.*value: "1"\n/, '\n')).toBe(CART);
  });

  it('adds a key to a flow map and to a flow sequence', () => {
    const text = 'a: {x: 1}\nb: [1, 2] # keep\n';
    expect(edited(setValueAt(text, 0, ['a', 'z'], 'two words'))).toBe('a: {x: 1, z: two words}\nb: [1, 2] # keep\n');
    expect(edited(setValueAt(text, 0, ['b', { index: 2 }], 3))).toBe('a: {x: 1}\nb: [1, 2, 3] # keep\n');
  });

  it("replaces a subtree with block lines at the key's indentation", () => {
    const text = 'spec:\n  # resources\n  resources:\n    cpu: 1\n  other: x\n';
    expect(edited(setValueAt(text, 0, ['spec', 'resources'], { cpu: '2', memory: '1Gi' }))).toBe(
      'spec:\n  # resources\n  resources:\n    cpu: "2"\n    memory: 1Gi\n  other: x\n',
    );
  });
});

describe('removeValueAt', () => {
  it('removes a key and only its lines', () => {
    const text = readFixture('manifests/argo-cd/test/e2e/testdata/guestbook/guestbook-ui-deployment.yaml');
    const after = edited(removeValueAt(text, 0, ['spec', 'replicas']));
    expect(changedLines(text, after)).toEqual({ removed: ['  replicas: 0'], added: [] });
    expect(parse(after).spec.replicas).toBeUndefined();
  });

  it('removes the first key of a list item by moving the next key up', () => {
    const text = 'items:\n- name: a\n  value: 1\n';
    expect(edited(removeValueAt(text, 0, ['items', { index: 0 }, 'name']))).toBe('items:\n- value: 1\n');
  });
});

describe('setValueAt: block scalars and line endings', () => {
  it('rewrites a literal block scalar as a literal block at its content indentation', () => {
    const text = 'data:\n  script: |\n    echo a\n    echo b\n  other: x\n';
    expect(edited(setValueAt(text, 0, ['data', 'script'], 'echo c\n'))).toBe(
      'data:\n  script: |\n    echo c\n  other: x\n',
    );
    expect(parse(edited(setValueAt(text, 0, ['data', 'script'], 'no newline')))).toEqual({
      data: { script: 'no newline', other: 'x' },
    });
  });

  it("writes new lines with the file's CRLF line endings", () => {
    const text = 'spec:\r\n  a: 1\r\n  list:\r\n  - x\r\n';
    const after = edited(setValueAt(text, 0, ['spec', 'b'], 2));
    expect(after).toBe('spec:\r\n  a: 1\r\n  list:\r\n  - x\r\n  b: 2\r\n');
    expect(edited(setValueAt(text, 0, ['spec', 'list', { index: 1 }], 'z'))).toBe(
      'spec:\r\n  a: 1\r\n  list:\r\n  - x\r\n  - z\r\n',
    );
  });
});

describe('setValueAt: a subtree set to a new value changes only where the values differ', () => {
  // Argo Rollouts' own examples (github.com/argoproj/argo-rollouts, examples/): canary steps written
  // `- pause: {duration: 40s}` between comments, and Job containers with `command: [sh, -c]`.
  const CANARY = readFixture('manifests/argo-rollouts/examples/rollout-canary.yaml');
  const TEMPLATES = readFixture('manifests/argo-rollouts/examples/analysis-templates.yaml');
  const STEPS = ['spec', 'strategy', 'canary', 'steps'];
  const steps = (): Array<Record<string, unknown>> => parse(CANARY).spec.strategy.canary.steps;

  it('one changed step of a whole list rewrites that line only; flow steps and comments stay', () => {
    const live = steps();
    live[4] = { setWeight: 65 };
    const after = edited(setValueAt(CANARY, 0, STEPS, live));
    expect(changedLines(CANARY, after)).toEqual({
      removed: ['      - setWeight: 60'],
      added: ['      - setWeight: 65'],
    });
  });

  it('a value inside a flow map is rewritten inside it, in flow style', () => {
    const live = steps();
    live[3] = { pause: { duration: '45s' } };
    const result = setValueAt(CANARY, 0, STEPS, live);
    expect(changedLines(CANARY, edited(result))).toEqual({
      removed: ['      - pause: {duration: 40s}'],
      added: ['      - pause: {duration: 45s}'],
    });
    expect(result).toMatchObject({ line: 33 });
  });

  it('a step added or removed in the middle adds or removes its own line', () => {
    const added = [...steps().slice(0, 4), { setWeight: 50 }, { pause: { duration: '10s' } }, ...steps().slice(4)];
    expect(changedLines(CANARY, edited(setValueAt(CANARY, 0, STEPS, added)))).toEqual({
      removed: [],
      added: ['      - setWeight: 50', '      - pause:', '          duration: 10s'],
    });
    const removed = steps().filter((_, index) => index !== 2);
    expect(changedLines(CANARY, edited(setValueAt(CANARY, 0, STEPS, removed)))).toEqual({
      removed: ['      - setWeight: 40'],
      added: [],
    });
  });

  it('a changed item of a flow sequence keeps the other items as written', () => {
    const path = ['spec', 'metrics', { key: { name: 'pass' } }, 'provider', 'job', 'spec', 'template', 'spec'];
    const containers = [...path, 'containers'];
    const live = parseAllDocuments(TEMPLATES)[0].toJS().spec.metrics[0].provider.job.spec.template.spec.containers;
    live[0].command = ['sh', '-ec'];
    live[0].args = ['exit 0', '--verbose'];
    const after = edited(setValueAt(TEMPLATES, 0, containers, live));
    expect(changedLines(TEMPLATES, after)).toEqual({
      removed: ['                command: [sh, -c]', '                args: [exit 0]'],
      added: ['                command: [sh, -ec]', '                args: [exit 0, --verbose]'],
    });
  });

  it('edits inside a document written entirely in flow style, trailing commas kept', () => {
    // kubernetes/website content/en/examples/pods/init-containers.yaml.
    const text = readFixture('manifests/kubernetes-website/content/en/examples/pods/init-containers.yaml');
    const command = ['spec', 'initContainers', { key: { name: 'install' } }, 'command'];
    const longer = ['wget', '-O', '/work-dir/index.html', 'http://info.cern.ch', '--tries=3'];
    expect(changedLines(text, edited(setValueAt(text, 0, command, longer)))).toEqual({
      removed: ['        "http://info.cern.ch",'],
      added: ['        "http://info.cern.ch", --tries=3,'],
    });
    const shorter = ['wget', '/work-dir/index.html', 'http://info.cern.ch'];
    expect(changedLines(text, edited(removeValueAt(text, 0, [...command, { index: 1 }])))).toEqual({
      removed: ['        "-O",'],
      added: [],
    });
    expect(
      parseAllDocuments(edited(setValueAt(text, 0, command, shorter)))[0].toJS().spec.initContainers[0].command,
    ).toEqual(shorter);
  });
});
