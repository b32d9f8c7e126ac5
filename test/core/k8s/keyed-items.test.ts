// Keyed list items: keys with server-defaulted fields filled in, managedFields' spelling of a key,
// and finding the item a key names — the one rule the diff, the plan and codify match items by.
import { describe, expect, it } from 'vitest';
import {
  canonicalKey,
  indexOfItem,
  itemHasKey,
  itemKey,
  keyFieldValue,
  valueAtSegments,
} from '../../../src/core/k8s/index.js';

describe('itemKey', () => {
  it.each([
    [{ containerPort: 80 }, ['containerPort', 'protocol'], { containerPort: 80, protocol: 'TCP' }],
    [{ containerPort: 53, protocol: 'UDP' }, ['containerPort', 'protocol'], { containerPort: 53, protocol: 'UDP' }],
    [{ name: 'api' }, ['name'], { name: 'api' }],
    // A key made only of defaults identifies nothing.
    [{ protocol: 'TCP' }, ['containerPort', 'protocol'], undefined],
    [{ image: 'x' }, ['name'], undefined],
    ['api', ['name'], undefined],
  ])('%j by %j → %j', (item, keys, expected) => expect(itemKey(item, keys)).toEqual(expected));
});

it('a port that names no protocol is TCP, written once', () => {
  expect(keyFieldValue({ port: 80 }, 'protocol')).toBe('TCP');
  expect(keyFieldValue({ port: 80, protocol: 'SCTP' }, 'protocol')).toBe('SCTP');
  expect(keyFieldValue({ port: 80 }, 'name')).toBeUndefined();
});

it('canonicalKey spells a key as managedFields does (fields sorted)', () => {
  expect(canonicalKey({ protocol: 'TCP', containerPort: 80 })).toBe('{"containerPort":80,"protocol":"TCP"}');
  expect(canonicalKey({ name: 'api' })).toBe('{"name":"api"}');
});

describe('finding items', () => {
  const ports = [
    { name: 'http', port: 80 },
    { name: 'dns', port: 53, protocol: 'UDP' },
    { name: 'metrics', port: '9090' },
  ];
  it.each([
    [{ key: { port: 80, protocol: 'TCP' } }, 0],
    [{ key: { port: 53, protocol: 'UDP' } }, 1],
    [{ key: { port: 53, protocol: 'TCP' } }, -1],
    [{ key: { port: 9090 } }, 2],
    [{ index: 1 }, 1],
    [{ index: 7 }, -1],
    ['2', 2],
  ] as const)('%j → %s', (segment, index) => expect(indexOfItem(ports, segment)).toBe(index));

  it('itemHasKey compares as text and fills defaults', () => {
    expect(itemHasKey({ containerPort: '8080' }, { containerPort: 8080, protocol: 'TCP' })).toBe(true);
    expect(itemHasKey({ containerPort: 8080, protocol: 'UDP' }, { containerPort: 8080, protocol: 'TCP' })).toBe(false);
  });

  it('valueAtSegments walks maps, keyed items and positions', () => {
    const spec = { containers: [{ name: 'api', ports: [{ containerPort: 80 }] }] };
    const http = { key: { containerPort: 80, protocol: 'TCP' } };
    const api = { key: { name: 'api' } };
    expect(valueAtSegments(spec, ['containers', api, 'ports', http])).toEqual({ containerPort: 80 });
    expect(valueAtSegments(spec, ['containers', { index: 0 }, 'name'])).toBe('api');
    expect(valueAtSegments(spec, ['containers', { key: { name: 'web' } }])).toBeUndefined();
    expect(valueAtSegments(spec, ['containers', 'name'])).toBeUndefined();
  });
});
