// sprig's goutils- and xstrings-based string functions, with the cases of their upstream tests
// (Masterminds/sprig strings_test.go TestGoutils, TestPlural, TestSplitn and functions_test.go
// TestSnakeCase, TestCamelCase, TestKebabCase; huandu/xstrings convert_test.go
// TestToSnakeCaseAndToKebabCase, TestSwapCase and ToPascalCase's documented samples; Masterminds/goutils
// wordutils.go and stringutils.go documented examples), as the ApplicationSet controller prints them.
import { describe, expect, it } from 'vitest';
import { renderGo as go } from '../../support/go-template.js';

describe('abbrev, abbrevboth, initials, wrap, wrapWith, plural, splitn (strings_test.go)', () => {
  it.each([
    ['{{abbrev 5 "hello world"}}', 'he...'],
    ['{{abbrevboth 5 10 "1234 5678 9123"}}', '...5678...'],
    ['{{initials "First Try"}}', 'FT'],
    ['{{wrap 5 "Hello World"}}', 'Hello\nWorld'],
    ['{{wrapWith 5 "\\t" "Hello World"}}', 'Hello\tWorld'],
    ['{{$num := len "two"}}{{$num}} {{$num | plural "1 char" "chars"}}', '3 chars'],
    ['{{len "t" | plural "cheese" "%d chars"}}', 'cheese'],
    ['{{$v := "foo$bar$baz" | splitn "$" 2}}{{$v._0}}', 'foo'],
  ])('%s renders %j', (template, expected) => {
    expect(go(template)).toBe(expected);
  });
});

describe('goutils rules (stringutils_test.go TestAbbreviate*, wordutils_test.go TestWrap*, TestSwapCase, TestInitials)', () => {
  it.each([
    ['{{abbrev 6 "abcdefg"}}', 'abc...'],
    ['{{abbrev 7 "abcdefg"}}', 'abcdefg'],
    ['{{abbrev 4 "abcdefg"}}', 'a...'],
    ['{{abbrev 3 "abcdefg"}}', 'abcdefg'], // sprig leaves the text when the width is under 4
    ['{{abbrevboth -1 10 "abcdefghijklmno"}}', 'abcdefg...'],
    ['{{abbrevboth 5 10 "abcdefghijklmno"}}', '...fghi...'],
    ['{{abbrevboth 12 10 "abcdefghijklmno"}}', '...ijklmno'],
    ['{{abbrevboth 5 6 "abcdefghijklmno"}}', 'abcdefghijklmno'], // sprig: an offset needs a width of 7
    ['{{initials "John Doe.Ray"}}', 'JD'],
    ['{{initials "émile zola"}}', 'Ãz'], // goutils reads the first byte of each word as a rune
    ['{{wrap 10 "Bob Manuel Bob Manuel"}}', 'Bob Manuel\nBob Manuel'],
    [
      '{{wrap 20 "Here is one line of text that is going to be wrapped after 20 columns."}}',
      'Here is one line of\ntext that is going\nto be wrapped after\n20 columns.',
    ],
    [
      '{{wrap 20 "Click here to jump to the commons website - http://commons.apache.org"}}',
      'Click here to jump\nto the commons\nwebsite -\nhttp://commons.apache.org',
    ],
    [
      '{{wrap 20 "Click here, http://commons.apache.org, to jump to the commons website"}}',
      'Click here,\nhttp://commons.apache.org,\nto jump to the\ncommons website',
    ],
    [
      '{{wrap 11 "123456789_123456789_123456789_123456789_1234567890"}}',
      '123456789_123456789_123456789_123456789_1234567890',
    ],
    [
      '{{wrapWith 11 "\\n" "123456789_123456789_123456789_123456789_1234567890"}}',
      '123456789_1\n23456789_12\n3456789_123\n456789_1234\n567890',
    ],
    ['{{wrap 10 "BobManuelBob Bob"}}', 'BobManuelBob\nBob'],
    ['{{wrapWith 10 "<br\\\\>" "BobManuelBob Bob"}}', 'BobManuelB<br\\>ob Bob'],
    ['{{swapcase "This Is A.Test"}}', 'tHIS iS a.tEST'],
    ['{{$v := splitn "/" 3 "a/b/c/d"}}{{$v._0}} {{$v._1}} {{$v._2}} {{len $v}}', 'a b c/d 3'],
    ['{{len (splitn "/" 0 "a/b")}}', '0'],
    ['{{$v := splitn "/" -1 "a/b/c"}}{{$v._2}}', 'c'],
  ])('%s renders %j', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it('stops with text/template error when a count is not an int', () => {
    expect(go('{{abbrev "5" "hello world"}}')).toContain('wrong type for value; expected int; got string');
    expect(go('{{plural "one" "many" .n}}', { n: 1 })).toContain('expected int; got float64');
    expect(go('{{wrap 5}}')).toContain('wrong number of args for wrap: want 2 got 1');
  });
});

describe('camelcase (functions_test.go TestCamelCase; xstrings ToPascalCase samples)', () => {
  it.each([
    ['http_server', 'HttpServer'],
    ['_camel_case', '_CamelCase'],
    ['no_https', 'NoHttps'],
    ['_complex__case_', '_Complex_Case_'],
    ['all', 'All'],
    ['some words', 'SomeWords'],
    ['GOLANG_IS_GREAT', 'GolangIsGreat'],
    ['a', 'A'],
    ['', ''],
  ])('camelcase %j is %j', (text, expected) => {
    expect(go(`{{ camelcase ${JSON.stringify(text)} }}`)).toBe(expected);
  });
});

describe('swapcase (xstrings TestSwapCase cases, goutils SwapCase rule)', () => {
  it.each([
    ['swapCase', 'SWAPcASE'],
    ['Θ~λa云Ξπ', 'θ~ΛA云ξΠ'],
    ['a', 'A'],
    ['', ''],
    ['ǆemal', 'ǅEMAL'], // a lower-case letter starting a word becomes title case
  ])('swapcase %j is %j', (text, expected) => {
    expect(go(`{{ swapcase ${JSON.stringify(text)} }}`)).toBe(expected);
  });
});

describe('snakecase and kebabcase (functions_test.go; xstrings TestToSnakeCaseAndToKebabCase)', () => {
  const cases: [string, string][] = [
    ['FirstName', 'first_name'],
    ['GO_PATH', 'go_path'],
    ['GO PATH', 'go_path'],
    ['GO-PATH', 'go_path'],
    ['HTTPServer', 'http_server'],
    ['_camelCase', '_camel_case'],
    ['NoHTTPS', 'no_https'],
    ['Wi_thF', 'wi_th_f'],
    ['_AnotherTES_TCaseP', '_another_tes_t_case_p'],
    ['ALL', 'all'],
    ['_HELLO_WORLD_', '_hello_world_'],
    ['HELLO_WORLD', 'hello_world'],
    ['HELLO____WORLD', 'hello____world'],
    ['TW', 'tw'],
    ['_C', '_c'],
    ['http2xx', 'http_2xx'],
    ['HTTP2XX', 'http2_xx'],
    ['HTTP20xOK', 'http_20x_ok'],
    ['HTTP20xStatus', 'http_20x_status'],
    ['HTTP-20xStatus', 'http_20x_status'],
    ['a', 'a'],
    ['Duration2m3s', 'duration_2m3s'],
    ['Bld4Floor3rd', 'bld4_floor_3rd'],
    [' _-_ ', '_____'],
    ['a1b2c3d', 'a_1b2c3d'],
    ['A//B%%2c', 'a//b%%2c'],
    ['HTTP状态码404/502Error', 'http_状态码404/502_error'],
    ['中文(字符)', '中文(字符)'],
    ['混合ABCWords与123数字456', '混合_abc_words_与123_数字456'],
    ['  sentence case  ', '__sentence_case__'],
    [' Mixed-hyphen case _and SENTENCE_case and UPPER-case', '_mixed_hyphen_case__and_sentence_case_and_upper_case'],
    ['FROM CamelCase to snake/kebab-case', 'from_camel_case_to_snake/kebab_case'],
    ['', ''],
    ['abc_123_def', 'abc_123_def'],
    [
      'Abc\uFFFDE\uFFFDf\uFFFDd\uFFFD2\uFFFD00z\uFFFDZZ\uFFFDZZ',
      'abc_\uFFFDe\uFFFDf\uFFFDd_\uFFFD2\uFFFD00z_\uFFFDzz\uFFFDzz',
    ],
    ['\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD', '\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD'],
  ];
  it.each(cases)('snakecase %j is %j', (text, expected) => {
    expect(go(`{{ snakecase ${JSON.stringify(text)} }}`)).toBe(expected);
  });
  it.each(cases.map(([text, snake]) => [text, snake.replaceAll('_', '-')]))('kebabcase %j is %j', (text, expected) => {
    expect(go(`{{ kebabcase ${JSON.stringify(text)} }}`)).toBe(expected);
  });
});
