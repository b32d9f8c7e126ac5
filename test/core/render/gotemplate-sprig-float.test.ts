// sprig's float, octal and truth functions with the cases of its own tests (Masterminds/sprig
// numeric_test.go TestBiggest, TestMaxf, TestMin, TestMinf, TestAdd, TestMul, TestToDecimal, TestAdd1f, TestAddf, TestDivf,
// TestMulf, TestSubf, TestCeil, TestFloor, TestRound; defaults_test.go TestAll, TestAny), `fail`, and
// numbers written as Go's lexer reads them (`.3`).
import { describe, expect, it } from 'vitest';
import { renderGo as go } from '../../support/go-template.js';

describe('float arithmetic (numeric_test.go)', () => {
  it.each([
    ['{{ biggest 1 2 3 345 5 6 7}}', '345'],
    ['{{ maxf 1 2 3 345.7 5 6 7}}', '345.7'],
    ['{{ max 345}}', '345'],
    ['{{ min 1 2 3 345 5 6 7}}', '1'],
    ['{{ min 345}}', '345'],
    ['{{ 3 | add 1 2}}', '6'],
    ['{{ 1 | mul "2" 3 "4"}}', '24'],
    ['{{ minf 1.4 2 3 345.6 5 6 7}}', '1.4'],
    ['{{ minf 345 }}', '345'],
    ['{{ 3.4 | add1f }}', '4.4'],
    ['{{ 3 | addf 1.5 2.2}}', '6.7'],
    ['{{ 2 | divf 5 4 }}', '0.625'],
    ['{{ 1.2 | mulf "2.4" 10 "4"}}', '115.2'],
    ['{{ 3 | subf 4.5 1 }}', '0.5'],
    ['{{ ceil 123 }}', '123'],
    ['{{ ceil "123" }}', '123'],
    ['{{ ceil 123.01 }}', '124'],
    ['{{ ceil "123.01" }}', '124'],
    ['{{ floor 123 }}', '123'],
    ['{{ floor "123" }}', '123'],
    ['{{ floor 123.9999 }}', '123'],
    ['{{ floor "123.9999" }}', '123'],
    ['{{ round 123.5555 3 }}', '123.556'],
    ['{{ round "123.55555" 3 }}', '123.556'],
    ['{{ round 123.500001 0 }}', '124'],
    ['{{ round 123.49999999 0 }}', '123'],
    ['{{ round 123.2329999 2 .3 }}', '123.23'],
    ['{{ round 123.233 2 .3 }}', '123.24'],
    ['{{ toDecimal "777" }}', '511'],
    ['{{ toDecimal 777 }}', '511'],
    ['{{ toDecimal 770 }}', '504'],
    ['{{ toDecimal 755 }}', '493'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it('computes in decimals as shopspring/decimal does and prints float64 as Go does', () => {
    expect(go('{{ addf 0.1 0.2 }}')).toBe('0.3'); // 0.30000000000000004 in float64 arithmetic
    expect(go('{{ mulf 0.1 3 }}')).toBe('0.3');
    expect(go('{{ divf 1 3 }}')).toBe('0.3333333333333333'); // 16 decimal places
    expect(go('{{ divf -2 3 }}')).toBe('-0.6666666666666667');
    expect(go('{{ mulf 1.0000001 1000000 }}')).toBe('1.0000001e+06');
    expect(go('{{ addf }}|{{ typeOf (addf 1 2) }}|{{ maxf 1 .n }}', { n: 2.5 })).toBe('0|float64|2.5');
    expect(go('{{ add1f "not a number" }}|{{ maxf 1 "x" }}')).toBe('1|1'); // cast reads such text as 0
    expect(go('{{ divf 1 0 }}')).toContain('error calling divf: decimal division by 0');
    expect(go('{{ subf }}')).toContain('wrong number of args for subf: want at least 1 got 0');
    expect(go('{{ add }}|{{ add 3 }}')).toBe('0|3'); // sprig's add takes any number of values
    expect(go('{{ max }}')).toContain('wrong number of args for max: want at least 1 got 0');
  });

  it('rounds and reads octal at the edges as sprig does', () => {
    expect(go('{{ round -1.5 0 }}|{{ round 2.5 0 }}|{{ round 1234.5678 -2 }}')).toBe('-2|3|1200');
    expect(go('{{ toDecimal "-17" }}|{{ toDecimal "8" }}|{{ toDecimal 1.5 }}|{{ toDecimal "0777" }}')).toBe(
      '-15|0|0|511',
    );
    expect(go('{{ round 1.5 "0" }}')).toContain('wrong type for value; expected int; got string');
  });
});

describe('all and any (defaults_test.go)', () => {
  it.each([
    ['{{ all 1 }}', 'true'],
    ['{{ all "" 0 nil 2 }}', 'false'],
    ['{{ $two := 2 }}{{ all "" 0 nil $two }}', 'false'],
    ['{{ $two := 2 }}{{ all "" $two 0 0 0 }}', 'false'],
    ['{{ $two := 2 }}{{ all "" $two 3 4 5 }}', 'false'],
    ['{{ all }}', 'true'],
    ['{{ all .top.NoSuchThing .bottom .bottom.dollar "airplane"}}', 'false'],
    ['{{ any 1 }}', 'true'],
    ['{{ any "" 0 nil 2 }}', 'true'],
    ['{{ $two := 2 }}{{ any "" 0 nil $two }}', 'true'],
    ['{{ $two := 2 }}{{ any "" $two 3 4 5 }}', 'true'],
    ['{{ $zero := 0 }}{{ any "" $zero 0 0 0 }}', 'false'],
    ['{{ any }}', 'false'],
    ['{{ any .top.NoSuchThing .bottom .bottom.dollar "airplane"}}', 'true'],
  ])('%s renders %s', (template, expected) => {
    expect(go(template, { top: {} })).toBe(expected);
  });
});

describe('fail and refused names', () => {
  it("stops the render with the template's message", () => {
    expect(go('{{ if not .env }}{{ fail "env is required" }}{{ end }}ok', { env: 'prod' })).toBe('ok');
    expect(go('{{ if not .env }}{{ fail "env is required" }}{{ end }}ok', {})).toBe(
      'ERROR: template "{{ if not .env }}{{ fail \\"env is required\\" }}{{ end }}ok": error calling fail: env is required',
    );
    expect(go('{{ fail 3 }}')).toContain('wrong type for value; expected string; got int');
  });

  it('refuses lte and gte, which sprig leaves out (text/template has le and ge)', () => {
    expect(go('{{ lte 1 2 }}')).toContain('function lte not supported');
    expect(go('{{ gte 1 2 }}')).toContain('function gte not supported');
    expect(go('{{ le 1 2 }}|{{ ge .5 0.5 }}')).toBe('true|true');
  });
});
