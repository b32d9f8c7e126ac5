// An ApplicationSet's template strings rendered with one set of generator parameters, as
// applicationset/utils/utils.go Render.Replace does: with `goTemplate: true`, Go's text/template —
// here its common subset: `{{ .a.b }}`, `{{ index .a 1 }}`, `{{ index .a "key" }}` and the pipeline
// functions `lower`, `upper`, `trim` and Argo CD's `normalize`; any other action is refused with its
// text, never guessed. Without it, fasttemplate: `{{path.basename}}` is the parameter of that name
// (spaces trimmed), and a tag that names no string parameter stays as written.
import { isPlainObject } from '../model/index.js';

export type Params = Record<string, unknown>;

/** A parameter the snapshot cannot give (a cluster Secret's values): using it stops the expansion. */
export class UnknownParam {
  constructor(readonly why: string) {}
}

export interface TemplateMode {
  goTemplate: boolean;
  /** `goTemplateOptions: ["missingkey=error"]`: a missing key fails instead of printing `<no value>`. */
  missingKeyError: boolean;
}

export type Rendered = { ok: true; text: string } | { ok: false; reason: string };

/** Argo CD's SanitizeName (applicationset/utils/template_functions.go): a DNS-1123-ish name. */
export function sanitizeName(name: string): string {
  const lowered = name.toLowerCase().replace(/[^-a-z0-9.]/g, '-');
  return lowered.slice(0, 253).replace(/^[-.]+|[-.]+$/g, '');
}

export function renderTemplateString(text: string, params: Params, mode: TemplateMode): Rendered {
  if (!text.includes('{{')) return { ok: true, text };
  return mode.goTemplate ? goTemplate(text, params, mode) : fastTemplate(text, params);
}

function fastTemplate(text: string, params: Params): Rendered {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('{{'); open >= 0; open = text.indexOf('{{', at)) {
    const close = text.indexOf('}}', open + 2);
    if (close < 0) return { ok: false, reason: `invalid template ${JSON.stringify(text)}: no closing }}` };
    const tag = text.slice(open + 2, close);
    const value = params[tag.trim()];
    if (value instanceof UnknownParam) return { ok: false, reason: value.why };
    out += text.slice(at, open) + (tag.trim() !== '' && typeof value === 'string' ? value : `{{${tag}}}`);
    at = close + 2;
  }
  return { ok: true, text: out + text.slice(at) };
}

function goTemplate(text: string, params: Params, mode: TemplateMode): Rendered {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('{{'); open >= 0; open = text.indexOf('{{', at)) {
    const close = text.indexOf('}}', open + 2);
    if (close < 0) return { ok: false, reason: `template ${JSON.stringify(text)}: unclosed action` };
    let action = text.slice(open + 2, close);
    let before = text.slice(at, open);
    if (/^-\s/.test(action)) [before, action] = [before.trimEnd(), action.slice(1)];
    const trimAfter = /\s-$/.test(action);
    if (trimAfter) action = action.slice(0, -1);
    const value = evaluate(action.trim(), params, mode);
    if (!value.ok) return value;
    out += before + value.text;
    at = close + 2;
    if (trimAfter) while (at < text.length && /\s/.test(text[at]!)) at++;
  }
  return { ok: true, text: out + text.slice(at) };
}

const FUNCTIONS: Record<string, (text: string) => string> = {
  lower: (text) => text.toLowerCase(),
  upper: (text) => text.toUpperCase(),
  trim: (text) => text.trim(),
  normalize: sanitizeName,
};

const MISSING = Symbol('missing');

function evaluate(action: string, params: Params, mode: TemplateMode): Rendered {
  const [head, ...stages] = action.split('|').map((stage) => stage.trim());
  const words = (head ?? '').match(/"[^"]*"|\S+/g) ?? [];
  let value: unknown;
  if (words.length === 1 && words[0]!.startsWith('.')) value = lookup(words[0]!, params);
  else if (words[0] === 'index' && words.length >= 3) value = indexInto(words.slice(1), params);
  else if (words.length === 2 && FUNCTIONS[words[0]!] && words[1]!.startsWith('.')) {
    value = lookup(words[1]!, params);
    stages.unshift(words[0]!);
  } else return { ok: false, reason: `template action {{${action}}} is not expanded` };
  if (value instanceof UnknownParam) return { ok: false, reason: value.why };
  if (value === MISSING) {
    if (mode.missingKeyError) return { ok: false, reason: `template action {{${action}}}: map has no entry for key` };
    value = '<no value>';
  }
  let text = printed(value);
  if (text === undefined) return { ok: false, reason: `template action {{${action}}} gives no text` };
  for (const stage of stages) {
    const fn = FUNCTIONS[stage];
    if (!fn) return { ok: false, reason: `template function ${stage} is not expanded` };
    text = fn(text);
  }
  return { ok: true, text };
}

function lookup(path: string, params: Params): unknown {
  let value: unknown = params;
  for (const name of path.split('.').slice(1)) {
    if (value instanceof UnknownParam) return value;
    if (!isPlainObject(value) || !(name in value))
      return value === params || isPlainObject(value) ? MISSING : undefined;
    value = value[name];
  }
  return value;
}

function indexInto(words: string[], params: Params): unknown {
  let value = lookup(words[0]!, params);
  for (const word of words.slice(1)) {
    if (value instanceof UnknownParam || value === MISSING) return value;
    if (/^\d+$/.test(word) && Array.isArray(value)) value = value[Number(word)];
    else if (/^".*"$/.test(word) && isPlainObject(value)) value = value[word.slice(1, -1)];
    else return undefined;
  }
  return value;
}

/** Go's `%v` of a string, a bool, or a number it prints without an exponent. */
function printed(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    Math.abs(value) < 1e6 &&
    (value === 0 || Math.abs(value) >= 1e-4)
  )
    return String(value);
  return undefined;
}

/** Every string of a template, map keys too (utils.go deeplyReplace), rendered with `params`. */
export function renderTemplateTree(
  node: unknown,
  params: Params,
  mode: TemplateMode,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (typeof node === 'string') {
    const text = renderTemplateString(node, params, mode);
    return text.ok ? { ok: true, value: text.text } : text;
  }
  if (Array.isArray(node)) {
    const items: unknown[] = [];
    for (const item of node) {
      const rendered = renderTemplateTree(item, params, mode);
      if (!rendered.ok) return rendered;
      items.push(rendered.value);
    }
    return { ok: true, value: items };
  }
  if (!isPlainObject(node)) return { ok: true, value: node };
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(node)) {
    const name = renderTemplateString(key, params, mode);
    if (!name.ok) return name;
    const rendered = renderTemplateTree(item, params, mode);
    if (!rendered.ok) return rendered;
    out[name.text] = rendered.value;
  }
  return { ok: true, value: out };
}
