// go-yaml v2's emitter (emitterc.go yaml_emitter_analyze_scalar / select_scalar_style, encode.go stringv) decides how
// kustomize-controller's YAML text holds a string before envsubst runs on it; resolve.go decides what a plain scalar
// reads back as. Cases follow those rules.
import { describe, expect, it } from 'vitest';
import { emitScalar, readBack, resolvePlain, scalarStyle } from '../../../src/core/render/go-yaml.js';

describe('how go-yaml v2 writes a string that holds a variable', () => {
  it.each([
    ['${APP}', 'plain'],
    ['${APP}-gatus-ep', 'plain'],
    ['${COLOR:=#34577c}', 'plain'],
    ['#${COLOR}', 'single'],
    ['x: ${X}', 'single'],
    ['- ${X}', 'single'],
    [' ${X}', 'single'],
    ['${X} # note', 'single'],
    ['a\tb ${X}', 'double'],
    ['echo ${X}\nexit 0\n', 'literal'],
    ['trailing ${X} \nline', 'double'],
  ])('%j is written %s', (text, style) => {
    expect(scalarStyle(text)).toBe(style);
  });

  it('quotes and escapes as go-yaml does', () => {
    expect(emitScalar("it's ${X}: y")).toBe("'it''s ${X}: y'");
    expect(emitScalar('a\tb"${X}')).toBe('"a\\tb\\"${X}"');
    expect(emitScalar('echo ${X}\n')).toBe('|\n  echo ${X}');
    expect(emitScalar('echo ${X}')).toBe('echo ${X}');
  });
});

describe('how go-yaml v2 reads a substituted scalar back', () => {
  it.each([
    ['3', 3],
    ['-0x1F', -31],
    ['0777', 511],
    ['1_000', 1000],
    ['1e3', 1000],
    ['.5', 0.5],
    ['Yes', true],
    ['y', true],
    ['OFF', false],
    ['Null', null],
    ['2026-12-01', '2026-12-01'],
    ['1:20', '1:20'],
    ['0x', '0x'],
    ['v1', 'v1'],
  ])('plain %j is %j', (text, value) => {
    expect(resolvePlain(text)).toEqual(value);
  });

  it('quoted scalars stay text; flow collections are collections; comments are dropped', () => {
    expect(readBack("'3'")).toEqual({ value: '3' });
    expect(readBack('"yes"')).toEqual({ value: 'yes' });
    expect(readBack('{a: 1, b: [on]}')).toEqual({ value: { a: 1, b: [true] } });
    expect(readBack('red # comment')).toEqual({ value: 'red' });
    expect(readBack('')).toEqual({ value: null });
  });

  it('what YAMLToJSON refuses is a failure, never a value', () => {
    expect(readBack('a: b')).toMatchObject({ failure: expect.stringMatching(/^envsubst error: YAMLToJSON: yaml: /) });
    expect(readBack('*anchor')).toMatchObject({
      failure: expect.stringMatching(/^envsubst error: YAMLToJSON: yaml: /),
    });
    expect(readBack('.inf')).toEqual({ failure: 'envsubst error: YAMLToJSON: json: unsupported value: +Inf' });
  });
});
