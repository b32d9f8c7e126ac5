// Values and times as people read them: YAML scalars and flow collections, never escaped JSON; UTC
// times to the minute with the date only when it differs from the reference's.
import { describe, expect, it } from 'vitest';
import { counted, envAssignment, inlineValue, listed, shortValue, showTime } from '../../../src/core/model/index.js';

describe('inlineValue', () => {
  it.each([
    [8, '8'],
    ['nginx:1.27', 'nginx:1.27'],
    ['1', '"1"'],
    ['true', '"true"'],
    ['', '""'],
    [null, 'null'],
    [{ name: 'DEBUG', value: '1' }, '{name: DEBUG, value: "1"}'],
    [['a', 'b c'], '[a, b c]'],
    [undefined, '(unset)'],
  ])('%j → %s', (value, shown) => expect(inlineValue(value)).toBe(shown));

  it('gives up on what does not fit one short line', () => {
    expect(inlineValue('x'.repeat(49))).toBeUndefined();
    expect(inlineValue('two\nlines')).toBeUndefined();
    expect(shortValue('x'.repeat(60), 10)).toBe('xxxxxxxxx…');
    expect(shortValue('two\nlines')).toBe('two lines');
  });
});

describe('showTime', () => {
  it.each([
    ['2026-12-02T03:10:59Z', '2026-12-02T05:00:00Z', '03:10 UTC'],
    ['2026-12-01T22:40:00Z', '2026-12-02T05:00:00Z', '2026-12-01 22:40 UTC'],
    ['2025-12-01T22:40:00Z', '2026-12-02T05:00:00Z', '2025-12-01 22:40 UTC'],
    ['2026-12-02T03:10:00+02:00', '2026-12-02T05:00:00Z', '01:10 UTC'],
    ['2026-12-02T03:10:00Z', undefined, '2026-12-02 03:10 UTC'],
    ['soon', undefined, 'soon'],
  ])('%s (reference %s) → %s', (time, reference, shown) => expect(showTime(time, reference)).toBe(shown));
});

it('counts and lists in words', () => {
  expect(counted(1, 'warning')).toBe('1 warning');
  expect(counted(3, 'warning')).toBe('3 warnings');
  expect(listed(['a'])).toBe('a');
  expect(listed(['a', 'b', 'c'])).toBe('a, b and c');
});

describe('envAssignment', () => {
  const env = (name: string) => ['spec', 'containers', { key: { name: 'api' } }, 'env', { key: { name } }];
  it.each([
    [{ name: 'LEVEL', value: 'debug' }, env('LEVEL'), 'LEVEL=debug'],
    [{ name: 'EMPTY', value: '' }, env('EMPTY'), 'EMPTY='],
    [{ name: 'KEY', valueFrom: { secretKeyRef: { name: 'api', key: 'key' } } }, env('KEY'), undefined],
    [{ name: 'LEVEL', value: 'debug' }, ['spec', 'items', { key: { name: 'LEVEL' } }], undefined],
    ['debug', [...env('LEVEL'), 'value'], undefined],
  ])('%j at %j → %s', (value, segments, shown) => expect(envAssignment(value, segments)).toBe(shown));
});
