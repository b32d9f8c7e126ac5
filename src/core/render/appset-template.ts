// An ApplicationSet's template strings rendered with one set of generator parameters, as
// applicationset/utils/utils.go Render.Replace does: with `goTemplate: true`, Go's text/template with
// sprig's and Argo CD's functions (gotemplate/); `goTemplateOptions: ["missingkey=error"]` makes a
// missing key an error. Without it, fasttemplate: `{{path.basename}}` is the parameter of that name
// (spaces trimmed), and a tag that names no string parameter stays as written.
import { isPlainObject } from '../model/index.js';
import { execute, UnknownValueError } from './gotemplate/exec.js';
import { FUNCTIONS, sanitizeName } from './gotemplate/functions.js';
import { parseTemplate, TemplateError } from './gotemplate/parser.js';
import { UnknownParam } from './gotemplate/go-values.js';

export { sanitizeName, UnknownParam };

export type Params = Record<string, unknown>;

export interface TemplateMode {
  goTemplate: boolean;
  /** `goTemplateOptions: ["missingkey=error"]`: a missing key fails instead of printing `<no value>`. */
  missingKeyError: boolean;
}

export type Rendered = { ok: true; text: string } | { ok: false; reason: string };

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

/** Go's text/template with Argo CD's function map, as utils.go Replace runs it. */
function goTemplate(text: string, params: Params, mode: TemplateMode): Rendered {
  try {
    const nodes = parseTemplate(text);
    return { ok: true, text: execute(nodes, params, { missingKeyError: mode.missingKeyError, functions: FUNCTIONS }) };
  } catch (error) {
    if (error instanceof UnknownValueError) return { ok: false, reason: error.why };
    if (error instanceof TemplateError)
      return { ok: false, reason: `template ${JSON.stringify(text)}: ${error.message}` };
    throw error;
  }
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
