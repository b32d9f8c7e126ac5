// Field paths as people read them: keyed list items by their key (composite keys joined with `/`,
// defaulted key fields filled in), map keys that are not words quoted, positions as positions.
import { describe, expect, it } from 'vitest';
import {
  fieldPath,
  fieldPathCovers,
  parseFieldPath,
  writeFieldPath,
  type FieldPathSegment,
} from '../../../src/core/k8s/index.js';
import type { PathSegment } from '../../../src/core/model/index.js';

const deployment = { group: 'apps', kind: 'Deployment' };
const service = { group: '', kind: 'Service' };

describe('fieldPath of structured segments (what the diff records)', () => {
  it.each<[string, readonly PathSegment[], { group: string; kind: string } | undefined, string]>([
    ['a scalar', ['spec', 'replicas'], deployment, 'spec.replicas'],
    [
      'an env var in a container',
      ['spec', 'template', 'spec', 'containers', { key: { name: 'server' } }, 'env', { key: { name: 'DEBUG' } }],
      deployment,
      'spec.template.spec.containers[server].env[DEBUG]',
    ],
    [
      'a container port, protocol defaulted',
      ['spec', 'template', 'spec', 'containers', { key: { name: 'web' } }, 'ports', { key: { containerPort: 8080 } }],
      deployment,
      'spec.template.spec.containers[web].ports[8080/TCP]',
    ],
    [
      'a UDP service port',
      ['spec', 'ports', { key: { port: 53, protocol: 'UDP' } }, 'targetPort'],
      service,
      'spec.ports[53/UDP].targetPort',
    ],
    [
      "key fields in the list's order",
      ['spec', 'ports', { key: { protocol: 'TCP', port: 80 } }],
      service,
      'spec.ports[80/TCP]',
    ],
    [
      'a volume mount by its path',
      [
        'spec',
        'template',
        'spec',
        'containers',
        { key: { name: 'db' } },
        'volumeMounts',
        { key: { mountPath: '/var/lib/data' } },
      ],
      deployment,
      'spec.template.spec.containers[db].volumeMounts[/var/lib/data]',
    ],
    [
      'an annotation with dots and a slash',
      ['metadata', 'annotations', 'app.kubernetes.io/name'],
      deployment,
      'metadata.annotations["app.kubernetes.io/name"]',
    ],
    ['a ConfigMap data key', ['data', 'config.yaml'], { group: '', kind: 'ConfigMap' }, 'data["config.yaml"]'],
    [
      'a label with a hyphen stays a word',
      ['metadata', 'labels', 'team-name'],
      deployment,
      'metadata.labels.team-name',
    ],
    [
      'a position in a list',
      ['spec', 'template', 'spec', 'containers', { key: { name: 'a' } }, 'args', { index: 2 }],
      deployment,
      'spec.template.spec.containers[a].args[2]',
    ],
    [
      'a key value with a space is quoted',
      ['spec', 'template', 'spec', 'containers', { key: { name: 'a' } }, 'env', { key: { name: 'A B' } }],
      deployment,
      'spec.template.spec.containers[a].env["A B"]',
    ],
    [
      'a composite part with a slash is quoted',
      ['spec', 'x', { key: { zone: 'eu/1', mode: 'a' } }],
      undefined,
      'spec.x["eu/1"/a]',
    ],
    ['without the kind, the key as recorded', ['spec', 'ports', { key: { port: 80 } }], undefined, 'spec.ports[80]'],
    ['the root', [], deployment, ''],
  ])('%s', (_name, segments, of, expected) => expect(fieldPath(segments, of)).toBe(expected));
});

describe('fieldPath of a JSON pointer', () => {
  const object = {
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'server',
              env: [
                { name: 'PORT', value: '8080' },
                { name: 'DEBUG', value: '1' },
              ],
              ports: [{ containerPort: 8080 }],
              args: ['-v'],
            },
          ],
        },
      },
    },
    data: { '0': 'zero' },
  };
  it.each([
    [
      'positions named by the keys of the items there',
      '/spec/template/spec/containers/0/env/1',
      'spec.template.spec.containers[server].env[DEBUG]',
    ],
    [
      'a port item, protocol defaulted',
      '/spec/template/spec/containers/0/ports/0/containerPort',
      'spec.template.spec.containers[server].ports[8080/TCP].containerPort',
    ],
    [
      'an atomic list keeps positions',
      '/spec/template/spec/containers/0/args/0',
      'spec.template.spec.containers[server].args[0]',
    ],
    ['a digit map key stays a key', '/data/0', 'data["0"]'],
    [
      'escaped pointer segments',
      '/metadata/annotations/example.com~1owner',
      'metadata.annotations["example.com/owner"]',
    ],
  ])('%s', (_name, pointer, expected) => expect(fieldPath(pointer, { ...deployment, object })).toBe(expected));

  it('without an object, digits are positions', () => {
    expect(fieldPath('/spec/template/spec/containers/0/env/1')).toBe('spec.template.spec.containers[0].env[1]');
    expect(fieldPath('/spec/replicas')).toBe('spec.replicas');
  });
});

describe('parseFieldPath reads back what fieldPath prints', () => {
  it.each([
    'spec.replicas',
    'spec.template.spec.containers[server].env[DEBUG].value',
    'spec.template.spec.containers[web].ports[8080/TCP]',
    'spec.template.spec.containers[db].volumeMounts[/var/lib/data]',
    'metadata.annotations["app.kubernetes.io/name"]',
    'data["config.yaml"]',
    'spec.ports["a b"/UDP]',
    'spec.template.spec.containers[0].args[2]',
    '["0"].x',
  ])('%s', (printed) => {
    const segments = parseFieldPath(printed);
    expect(typeof segments).not.toBe('string');
    expect(writeFieldPath(segments as FieldPathSegment[])).toBe(printed);
  });

  it('segments name keys, items and quoted keys; a cut is the path to that depth', () => {
    const segments = parseFieldPath('spec.containers[web].env["MY VAR"]') as FieldPathSegment[];
    expect(segments.map((s) => [s.kind, s.text])).toEqual([
      ['key', 'spec'],
      ['key', 'containers'],
      ['item', 'web'],
      ['key', 'env'],
      ['quoted', 'MY VAR'],
    ]);
    expect(writeFieldPath(segments.slice(0, 3))).toBe('spec.containers[web]');
    expect(parseFieldPath('')).toEqual([]);
  });

  it('covers the field and what is below it; * and [*] name any key or item', () => {
    const field = parseFieldPath('spec.template.spec.containers[app].image') as FieldPathSegment[];
    const covers = (rule: string) => fieldPathCovers(parseFieldPath(rule) as FieldPathSegment[], field);
    expect(covers('spec.template.spec.containers[app].image')).toBe(true);
    expect(covers('spec.template.spec.containers[app]')).toBe(true);
    expect(covers('spec.template.spec.containers[*].image')).toBe(true);
    expect(covers('spec.*.spec')).toBe(true);
    expect(covers('spec.template.spec.containers["app"]')).toBe(true);
    expect(covers('spec.template.spec.containers[web]')).toBe(false);
    expect(covers('spec.template.spec.containers.app')).toBe(false);
    expect(covers('spec.template.spec.containers[app].image.tag')).toBe(false);
  });

  it('a port without its protocol is the TCP port, as Kubernetes defaults it', () => {
    const port = (printed: string) => parseFieldPath(printed) as FieldPathSegment[];
    const container = 'spec.template.spec.containers[web].ports';
    const tcp = port(`${container}[8080/TCP].hostPort`);
    expect(fieldPathCovers(port(`${container}[8080]`), tcp)).toBe(true);
    expect(fieldPathCovers(port(`${container}[8080/TCP]`), tcp)).toBe(true);
    expect(fieldPathCovers(port(`${container}[8080]`), port(`${container}[8080/UDP]`))).toBe(false);
    expect(fieldPathCovers(port(`${container}[8081]`), tcp)).toBe(false);
    expect(fieldPathCovers(port('spec.ports[443]'), port('spec.ports[443/TCP].targetPort'))).toBe(true);
    // Only a `ports` list: another list's item is its key as written.
    expect(fieldPathCovers(port('spec.items[8080]'), port('spec.items[8080/TCP]'))).toBe(false);
  });

  it.each([
    ['spec..image', 'expected a field name at character 6'],
    ['spec.containers[app', 'has no closing `]`'],
    ['spec.containers[]', 'names no item'],
    ['spec.containers[name=app]', 'write `[app]`, not `[name=app]`'],
    ['env[MY VAR]', 'quote the key'],
    ['spec containers', 'expected `.` or `[` at character 5'],
  ])('%s: says what to write', (text, message) => {
    expect(parseFieldPath(text)).toContain(message);
  });
});
