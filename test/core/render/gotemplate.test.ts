// ApplicationSet Go templates as Go's text/template runs them with Argo CD's function map
// (applicationset/utils/utils.go): the cases follow text/template's documented semantics (truth,
// missingkey, trim markers, pipelines, variables, range) and sprig's functions; the last ones are Argo
// CD's own documented examples (test/fixtures/upstream/argo-cd-applicationset/docs/.../GoTemplate.md,
// argoproj/argo-cd, Apache-2.0).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../../src/core/model/index.js';
import { expandApplicationSet } from '../../../src/core/render/appset-expand.js';
import { renderTemplateString, UnknownParam } from '../../../src/core/render/appset-template.js';
import { readFixtureTree } from '../../support/fixtures.js';

const data = {
  name: 'guestbook',
  env: 'Prod',
  replicas: 3,
  big: 1000000,
  ratio: 0.5,
  empty: '',
  none: null,
  flag: false,
  list: ['a', 'b', 'c'],
  labels: { tier: 'web', 'app.kubernetes.io/name': 'gb' },
  nested: { deeper: { value: 'x' } },
};

const go = (text: string, missingKeyError = false, params: Record<string, unknown> = data) => {
  const rendered = renderTemplateString(text, params, { goTemplate: true, missingKeyError });
  return rendered.ok ? rendered.text : `ERROR: ${rendered.reason}`;
};

describe('Go templates: values and printing', () => {
  it.each([
    ['{{ .name }}', 'guestbook'],
    ['{{ .nested.deeper.value }}', 'x'],
    ['{{ .replicas }}', '3'],
    // Parameters come through JSON: numbers are float64, printed as fmt's %v prints them.
    ['{{ .big }}', '1e+06'],
    ['{{ .ratio }}', '0.5'],
    ['{{ .flag }}', 'false'],
    ['{{ .list }}', '[a b c]'],
    ['{{ .labels }}', 'map[app.kubernetes.io/name:gb tier:web]'],
    ['{{ .missing }}', '<no value>'],
    ['{{ .missing.deeper }}', '<no value>'],
    ['{{ .none }}', '<no value>'],
    ['{{ index .labels "app.kubernetes.io/name" }}', 'gb'],
    ['{{ index .list 1 }}', 'b'],
    ['{{ index .labels "absent" }}', '<no value>'],
    [
      '{{ $ }}',
      'map[big:1e+06 empty: env:Prod flag:false labels:map[app.kubernetes.io/name:gb tier:web] list:[a b c] ' +
        'name:guestbook nested:map[deeper:map[value:x]] none:<nil> ratio:0.5 replicas:3]',
    ],
    ['{{/* a comment */}}x', 'x'],
    ['{{ "quoted \\"}}\\" text" }}', 'quoted "}}" text'],
    ['{{ `raw {{ }}` }}', 'raw {{ }}'],
  ])('%s → %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it('trims spaces with {{- and -}}, and leaves {{-3}} a number', () => {
    expect(go('a  \n {{- .name -}} \n  b')).toBe('aguestbookb');
    expect(go('{{-3}}')).toBe('-3');
  });

  it('under missingkey=error, a missing key fails; index does not', () => {
    expect(go('{{ .missing }}', true)).toContain('map has no entry for key "missing"');
    expect(go('{{ index .labels "absent" }}', true)).toBe('<no value>');
  });

  it('a field of a string or of nil is an error', () => {
    expect(go('{{ .name.first }}')).toContain("can't evaluate field first in type string");
    expect(go('{{ .none.first }}')).toContain('nil pointer evaluating interface {}.first');
  });
});

describe('Go templates: control structures', () => {
  it.each([
    // Truth: false, 0, nil, and empty strings, lists and maps are false.
    ['{{ if .empty }}y{{ else }}n{{ end }}', 'n'],
    ['{{ if .none }}y{{ else }}n{{ end }}', 'n'],
    ['{{ if .missing }}y{{ else }}n{{ end }}', 'n'],
    ['{{ if .list }}y{{ end }}', 'y'],
    ['{{ if eq .env "Dev" }}dev{{ else if eq .env "Prod" }}prod{{ else }}other{{ end }}', 'prod'],
    ['{{ with .nested.deeper }}{{ .value }}{{ end }}', 'x'],
    ['{{ with .missing }}y{{ else }}none{{ end }}', 'none'],
    ['{{ range $i, $v := .list }}{{ $i }}={{ $v }};{{ end }}', '0=a;1=b;2=c;'],
    ['{{ range .list }}{{ if eq . "b" }}{{ continue }}{{ end }}{{ . }}{{ end }}', 'ac'],
    ['{{ range .list }}{{ if eq . "b" }}{{ break }}{{ end }}{{ . }}{{ end }}', 'a'],
    // Maps range in sorted key order.
    ['{{ range $k, $v := .labels }}{{ $k }}:{{ $v }} {{ end }}', 'app.kubernetes.io/name:gb tier:web '],
    ['{{ range .missing }}x{{ else }}empty{{ end }}', 'empty'],
    ['{{ range 3 }}{{ . }}{{ end }}', '012'],
    ['{{ $x := "a" }}{{ if true }}{{ $x = "b" }}{{ end }}{{ $x }}', 'b'],
    ['{{ range .list }}{{ $.name }}{{ end }}', 'guestbookguestbookguestbook'],
    // and / or return one of their operands, evaluated left to right.
    ['{{ or .empty .missing "fallback" }}', 'fallback'],
    ['{{ and .name .env }}', 'Prod'],
    ['{{ and .flag .missing.x }}', 'false'],
    ['{{ not .flag }}', 'true'],
  ])('%s → %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it('comparing an int literal with a float64 parameter is an error, as in Go', () => {
    expect(go('{{ eq .replicas 3 }}')).toContain('incompatible types for comparison');
    expect(go('{{ eq .replicas 3.0 }}')).toBe('true');
    expect(go('{{ lt (len .list) 5 }}')).toBe('true');
  });

  it('refuses what it does not run, with the reason', () => {
    // Argo CD removes env, expandenv and getHostByName from sprig's functions.
    expect(go('{{ env "HOME" }}')).toContain('function env not supported');
    // Go refuses an undefined function when parsing, even in a branch never taken.
    expect(go('{{ if false }}{{ nope }}{{ end }}')).toContain('function nope not supported');
    expect(go('{{ template "x" }}')).toContain('{{template}} not supported');
    expect(go('{{ if .name }}x')).toContain('unexpected EOF');
    expect(go('{{ .name')).toContain('unclosed action');
  });

  it('stops on a value the snapshot cannot give, whatever uses it', () => {
    const params = { server: new UnknownParam('the cluster server is a Secret value') };
    expect(go('{{ .server | lower }}', false, params)).toBe('ERROR: the cluster server is a Secret value');
    expect(go('{{ if .server }}x{{ end }}', false, params)).toBe('ERROR: the cluster server is a Secret value');
  });

  it('bounds a template that runs too long', () => {
    expect(go('{{ range 100000 }}{{ range 100 }}{{ end }}{{ end }}')).toContain('steps');
  });
});

describe('Go templates: functions', () => {
  it.each([
    ['{{ .env | lower }}', 'prod'],
    ['{{ upper .env }}', 'PROD'],
    ['{{ title "hello wide-world" }}', 'Hello Wide-World'],
    ['{{ .missing | default "dflt" }}', 'dflt'],
    ['{{ .empty | default "dflt" }}', 'dflt'],
    ['{{ .name | default "dflt" }}', 'guestbook'],
    ['{{ printf "%s-%d-%v-%q" .name (len .list) .replicas .env }}', 'guestbook-3-3-"Prod"'],
    ['{{ printf "%d" .replicas }}', '%!d(float64=3)'],
    ['{{ printf "%05.1f|%-4s|%x" .ratio "ab" 255 }}', '000.5|ab  |ff'],
    ['{{ printf "%s" }}', '%!s(MISSING)'],
    ['{{ print "a" 1 2 "b" }}', 'a1 2b'],
    ['{{ replace "." "-" "a.b.c" }}', 'a-b-c'],
    ['{{ "abcdef" | trunc 3 }}|{{ trunc -2 "abcdef" }}', 'abc|ef'],
    ['{{ quote .name .replicas }}', '"guestbook" "3"'],
    ['{{ squote .name }}', "'guestbook'"],
    ['{{ toJson .labels }}', '{"app.kubernetes.io/name":"gb","tier":"web"}'],
    ['{{ toJson "<a&b>" }}', '"\\u003ca\\u0026b\\u003e"'],
    ['{{ toYaml .nested }}', 'deeper:\n  value: x'],
    ['{{ toYaml .list }}', '- a\n- b\n- c'],
    ['{{ (fromYaml "a: {b: yes}").a.b }}', 'true'],
    ['{{ index (fromYamlArray "[1, two]") 1 }}', 'two'],
    ['{{ splitList "," "x,y" | join "+" }}', 'x+y'],
    ['{{ (split "/" "a/b")._1 }}', 'b'],
    ['{{ trimPrefix "gu" .name }}-{{ trimSuffix "book" .name }}-{{ trimAll "g" .name }}', 'estbook-guest-uestbook'],
    ['{{ contains "est" .name }} {{ hasPrefix "gue" .name }} {{ hasSuffix "x" .name }}', 'true true false'],
    ['{{ ternary "yes" "no" (eq .env "Prod") }}', 'yes'],
    ['{{ coalesce .empty .none .name }}', 'guestbook'],
    ['{{ empty .labels }} {{ empty .empty }}', 'false true'],
    ['{{ add 1 2 3 }} {{ sub 5 2 }} {{ mul 2 .replicas }} {{ div 7 2 }} {{ mod 7 2 }}', '6 3 6 3 1'],
    ['{{ list 1 "a" | toJson }}', '[1,"a"]'],
    ['{{ (dict "a" 1 "b" "x").b }} {{ get (dict "a" 1) "z" }}|{{ hasKey .labels "tier" }}', 'x |true'],
    ['{{ keys .labels | sortAlpha | join "," }}', 'app.kubernetes.io/name,tier'],
    ['{{ first .list }}{{ last .list }}', 'ac'],
    ['{{ dig "nested" "deeper" "value" "d" . }} {{ dig "nested" "nope" "d" . }}', 'x d'],
    ['{{ base "a/b/c" }} {{ dir "a/b/c" }}', 'c a/b'],
    ['{{ .name | b64enc }} {{ "Z3Vlc3Rib29r" | b64dec }}', 'Z3Vlc3Rib29r guestbook'],
    ['{{ "x\\ny" | indent 2 }}|{{ "x" | nindent 2 }}', '  x\n  y|\n  x'],
    ['{{ normalize "My_App.Name-" }}', 'my-app.name'],
    ['{{ int "12" | add 1 }} {{ atoi "x" }} {{ toString .replicas }}', '13 0 3'],
  ])('%s → %s', (template, expected) => {
    expect(go(template)).toBe(expected);
  });

  it('slugify as gosimple/slug after SanitizeName: 50 characters, cut at a dash unless smart truncation is off', () => {
    const branch = { branch: 'Feature/JIRA-1234_add.some-Very_long Branch name with many words' };
    expect(go('{{ cat .branch | slugify }}', false, branch)).toBe('feature-jira-1234-add-some-very-long-branch-name');
    expect(go('{{ cat .branch | slugify 23 }}', false, branch)).toBe('feature-jira-1234-add');
    expect(go('{{ cat .branch | slugify 23 false }}', false, branch)).toBe('feature-jira-1234-add-s');
  });
});

describe('toYaml as sigs.k8s.io/yaml writes it (go-yaml v2 after a JSON round trip)', () => {
  const values = {
    strings: [
      'true',
      '3',
      'yes',
      'n',
      '2024-01-01',
      '1:20',
      '0x1F',
      '~',
      '',
      'a: b',
      '- x',
      '#c',
      'x #y',
      ' lead',
      'plain',
    ],
    numbers: [3, 0.5, 1e20, 1234567.5, 1000000],
    keys: { a10: 1, a2: 2, _x: 3, B: 4, b: 5, '1': 6, y: 7 },
    nested: [{ a: 1, b: ['x'] }, ['y']],
    empty: { map: {}, list: [] },
  };

  it('quotes a string that would read back as another type, and what plain style cannot hold', () => {
    expect(go('{{ toYaml .strings }}', false, values)).toBe(
      [
        ...['- "true"', '- "3"', '- "yes"', '- "n"', '- "2024-01-01"', '- "1:20"', '- "0x1F"', '- "~"', '- ""'],
        ...["- 'a: b'", "- '- x'", "- '#c'", "- 'x #y'", "- ' lead'", '- plain'],
      ].join('\n'),
    );
  });

  it('writes numbers as go-yaml types them from JSON: integers in int64 range, other floats shortest', () => {
    expect(go('{{ toYaml .numbers }}', false, values)).toBe('- 3\n- 0.5\n- 1e+20\n- 1.2345675e+06\n- 1000000');
  });

  it("orders keys as go-yaml's sorter: other characters before letters, digit runs by value", () => {
    expect(go('{{ toYaml .keys }}', false, values)).toBe('_x: 3\n"1": 6\nB: 4\na2: 2\na10: 1\nb: 5\n"y": 7');
  });

  it('writes lists under a key unindented, empty collections in flow style, scalars alone', () => {
    expect(go('{{ toYaml .nested }}|{{ toYaml .empty }}', false, values)).toBe(
      '- a: 1\n  b:\n  - x\n- - "y"|list: []\nmap: {}',
    );
    expect(go('{{ toYaml "x" }}|{{ toYaml .missing }}|{{ toYaml "true" }}|{{ toYaml 3 }}')).toBe('x|null|"true"|3');
  });

  it('folds a long string at a space past column 80, and writes a multi-line one as a literal block', () => {
    const long = { description: 'word '.repeat(30).trim(), script: 'set -e\necho hi\n' };
    expect(go('{{ toYaml . }}', false, long)).toBe(
      // `description: ` and 14 words end at column 82: the next space is folded.
      `description: ${'word '.repeat(13)}word\n  ${'word '.repeat(15)}word\nscript: |\n  set -e\n  echo hi`,
    );
  });

  it('keeps a string a string through a templatePatch, where YAML 1.2 output would turn `yes` into true', () => {
    const appset = parse(`apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: s, namespace: argocd}
spec:
  goTemplate: true
  generators:
  - list:
      elements:
      - name: web
        values: {feature: "yes", mode: "on", replicas: 2}
  template:
    metadata: {name: '{{ .name }}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/charts.git', path: chart}
      destination: {server: 'https://kubernetes.default.svc', namespace: web}
  templatePatch: |
    spec:
      source:
        helm:
          valuesObject:
            {{- toYaml .values | nindent 12 }}
`) as KubeObject;
    const expansion = expandApplicationSet(appset, { files: new Map(), live: [], isThisRepository: () => true });
    expect(expansion.ok && (expansion.applications[0]!.spec as any).source.helm.valuesObject).toEqual({
      feature: 'yes',
      mode: 'on',
      replicas: 2,
    });
  });
});

describe("Argo CD's documented Go template examples", () => {
  const doc = readFixtureTree('argo-cd-applicationset').get('docs/operator-manual/applicationset/GoTemplate.md')!;
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);

  it('fallbacks for unset parameters: dig gives the name suffix only where the element has one', () => {
    const text = blocks.find((block) => block.includes('dig "nameSuffix"'))!;
    const appset = parse(text) as KubeObject;
    appset.metadata = { ...appset.metadata, namespace: 'argocd' };
    const expansion = expandApplicationSet(appset, { files: new Map(), live: [], isThisRepository: () => true });
    expect(expansion.ok && expansion.applications.map((app) => app.metadata.name)).toEqual([
      'engineering-dev',
      'engineering-prod-my-name-suffix',
    ]);
  });
});
