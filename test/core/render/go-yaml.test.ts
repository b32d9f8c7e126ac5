// go-yaml v2's emitter (emitterc.go yaml_emitter_analyze_scalar / select_scalar_style, encode.go stringv) decides how
// kustomize-controller's YAML text holds a string before envsubst runs on it; resolve.go decides what a plain scalar
// reads back as. Cases follow those rules.
import { describe, expect, it } from 'vitest';
import { emitDocument, goKeyLess } from '../../../src/core/render/go-yaml-emit.js';
import { readDocument, resolvePlain } from '../../../src/core/render/go-yaml.js';

const readBack = (text: string): ReturnType<typeof readDocument> => {
  const back = readDocument(`k: ${text}\n`);
  return 'failure' in back ? back : { value: (back.value as Record<string, unknown>).k };
};

/** The scalar's text as go-yaml v2 writes it after `k: `. */
function written(value: string): string {
  return emitDocument({ k: value }).replace(/^k: ?/, '').replace(/\n$/, '');
}

describe('how go-yaml v2 writes a string that holds a variable', () => {
  it.each([
    ['${APP}', '${APP}'],
    ['${APP}-gatus-ep', '${APP}-gatus-ep'],
    ['${COLOR:=#34577c}', '${COLOR:=#34577c}'],
    ['#${COLOR}', "'#${COLOR}'"],
    ['x: ${X}', "'x: ${X}'"],
    ['- ${X}', "'- ${X}'"],
    [' ${X}', "' ${X}'"],
    ['${X} # note', "'${X} # note'"],
    ["it's ${X}: y", "'it''s ${X}: y'"],
    ['a\tb ${X}', '"a\\tb ${X}"'],
    ['a\tb"${X}', '"a\\tb\\"${X}"'],
    ['rocket 🚀 ${X}', '"rocket \\U0001F680 ${X}"'],
    ['echo ${X}\nexit 0\n', '|\n  echo ${X}\n  exit 0'],
    ['echo ${X}\n', '|\n  echo ${X}'],
    ['trailing ${X} \nline', '"trailing ${X} \\nline"'],
  ])('%j is written %s', (text, yaml) => {
    expect(written(text)).toBe(yaml);
  });

  it('quotes a string plain text would read back as another type, and sorts keys as its sorter does', () => {
    expect(emitDocument({ b: '3', a: 'yes', c: '', d: '1:20', e: '2026-12-01', f: 'v1' })).toBe(
      'a: "yes"\nb: "3"\nc: ""\nd: "1:20"\ne: "2026-12-01"\nf: v1\n',
    );
    expect(Object.keys({ a10: 0, a9: 0, B: 0, a: 0, _x: 0 }).sort((x, y) => (goKeyLess(x, y) ? -1 : 1))).toEqual([
      '_x',
      'B',
      'a',
      'a9',
      'a10',
    ]);
  });

  it('writes collections in block style: a list under a key not indented, empty ones in flow style', () => {
    const object = { spec: { args: ['a', { name: 'x', value: 1 }, ['b']], empty: {}, none: [], on: true, n: null } };
    expect(emitDocument(object)).toBe(
      'spec:\n  args:\n  - a\n  - name: x\n    value: 1\n  - - b\n  empty: {}\n  "n": null\n  none: []\n  "on": true\n',
    );
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

describe('how go-yaml v2 folds a long scalar (best_width 80) and how it reports a document it cannot read', () => {
  const a80 = 'a'.repeat(80);

  it('folds plain text at the first single space past column 80, continuing at the indent of the value', () => {
    expect(emitDocument({ k: `${a80} b c` })).toBe(`k: ${a80}\n  b c\n`);
    expect(emitDocument({ spec: { k: `${a80} b` } })).toBe(`spec:\n  k: ${a80}\n    b\n`);
    expect(emitDocument({ args: [`${a80} b`] })).toBe(`args:\n- ${a80}\n  b\n`);
    // A run of spaces is never broken.
    expect(emitDocument({ k: `${a80}  b` })).toBe(`k: ${a80}  b\n`);
  });

  it('folds quoted text too: a space that follows the break is escaped in double quotes', () => {
    expect(emitDocument({ k: `x\t${a80}  b` })).toBe(`k: "x\\t${a80}\n  \\ b"\n`);
    expect(emitDocument({ k: `#${a80} b` })).toBe(`k: '#${a80}\n  b'\n`);
  });

  it('never folds a key', () => {
    expect(emitDocument({ [`${a80} b`]: 1 })).toBe(`${a80} b: 1\n`);
  });

  it.each([
    ['a: 1\nk: x: y\n', 'yaml: line 2: mapping values are not allowed in this context'],
    ['k: x: y\n', 'yaml: mapping values are not allowed in this context'],
    ['a: 1\nk: "abc\n', 'yaml: line 3: found unexpected end of stream'],
    ['a: 1\nk: [a, b\n', "yaml: line 2: did not find expected ',' or ']'"],
    ['a: 1\nk: - b\n', 'yaml: line 2: block sequence entries are not allowed in this context'],
    ['a: 1\nk: `b\n', 'yaml: line 2: found character that cannot start any token'],
    ['a: 1\nk: x #c\n  y\nz: 1\n', 'yaml: line 2: did not find expected key'],
    ['a: 1\nk: ? x\n', 'yaml: line 2: mapping keys are not allowed in this context'],
    ['a: 1\nk: &\n', 'yaml: line 2: did not find expected alphabetic or numeric character'],
    ['a: 1\nk: |x\n', 'yaml: line 2: did not find expected comment or line break'],
    ['a: 1\nk: ]x\n', 'yaml: line 1: did not find expected node content'],
    ['a: 1\nk: "a\\qb"\n', 'yaml: line 2: found unknown escape character'],
  ])('%j: %s', (text, message) => {
    expect(readDocument(text)).toEqual({ failure: `envsubst error: YAMLToJSON: ${message}` });
  });

  it('types plain keys as YAML 1.1 does and writes them as YAMLToJSON does; a null key is refused', () => {
    expect(readDocument('yes: a\n0o17: b\n1e3: c\n.5: d\n3.14159265358979: e\n')).toEqual({
      value: { true: 'a', 15: 'b', 1000: 'c', 0.5: 'd', 3.1415927: 'e' },
    });
    expect(readDocument('~: a\n')).toMatchObject({ failure: expect.stringContaining('unsupported map key') });
  });

  it('a lone carriage return ends a line, as libyaml reads it', () => {
    expect(readDocument('k: v1\r\nz: 2\r')).toEqual({ value: { k: 'v1', z: 2 } });
  });
});
