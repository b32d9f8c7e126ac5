// Handlebars with driftback's helpers. Templates are plain Markdown; every value goes through a
// helper that escapes it for where it lands, so a template cannot forget to escape: the engine itself
// never HTML-escapes (noEscape) and models carry raw values. A repository's override that does not
// compile, throws, renders nothing or cannot fit GitHub's limit is replaced by the built-in template,
// and the document says so at its top: never a crash, never a silent empty comment.
import Handlebars from 'handlebars';
import {
  cellCode,
  cellProse,
  cellText,
  codeBlock,
  escapeHtml,
  escapeProse,
  escapeProseHtml,
  escapeText,
  inlineCode,
} from './escape.js';
import type { TemplateModels } from './models/index.js';
import { TEMPLATES, type TemplateName } from './templates/index.js';
import { PARTIALS } from './templates/partials.js';
import { FOLD_OVER, fitBudget, type FitsBudget } from './budget.js';
import { overridePath, type TemplateOverrides } from './overrides.js';

function createEngine(): typeof Handlebars {
  const engine = Handlebars.create();
  engine.registerHelper('text', (value: unknown) => escapeText(value));
  engine.registerHelper('code', (value: unknown) => inlineCode(value));
  engine.registerHelper('html', (value: unknown) => escapeHtml(value));
  engine.registerHelper('prose', (value: unknown) => escapeProse(value));
  engine.registerHelper('prosehtml', (value: unknown) => escapeProseHtml(value));
  // In table cells: the same, with line-break opportunities in long runs (paths, file names).
  engine.registerHelper('cellcode', (value: unknown) => cellCode(value));
  engine.registerHelper('celltext', (value: unknown) => cellText(value));
  engine.registerHelper('cellprose', (value: unknown) => cellProse(value));
  engine.registerHelper('value', (value: unknown) => (value == null ? '*unset*' : cellCode(value)));
  engine.registerHelper('block', (value: unknown, language: unknown) =>
    codeBlock(String(value ?? ''), typeof language === 'string' ? language : ''),
  );
  engine.registerHelper('plural', (count: unknown, word: unknown) => `${count} ${word}${count === 1 ? '' : 's'}`);
  engine.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  // A list the built-in templates fold behind a summary that counts it.
  engine.registerHelper('long', (list: unknown) => Array.isArray(list) && list.length > FOLD_OVER);
  for (const [name, text] of Object.entries(PARTIALS)) engine.registerPartial(name, text);
  return engine;
}

// One engine and the built-in templates compiled once: they are constants, and compiling them per
// rendering made a 2,000-resource plan several times slower.
const ENGINE = createEngine();
const COMPILE = { noEscape: true, strict: false } as const;
const BUILT_IN = Object.fromEntries(
  (Object.keys(TEMPLATES) as TemplateName[]).map((name) => [name, ENGINE.compile(TEMPLATES[name], COMPILE)]),
) as Record<TemplateName, HandlebarsTemplateDelegate>;

function tidy(text: string): string {
  return text.replace(/\n{3,}/g, '\n\n').trim() + '\n';
}

function note(text: string): string {
  return `> ⚠️ ${text}\n\n`;
}

/** The first line of an error, without Handlebars' source excerpt. */
function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0].trim();
}

type Attempt = { type: 'rendered'; body: string } | { type: 'failed'; reason: string };

/** Partials an override may nest (the built-in templates nest two). */
export const MAX_PARTIAL_DEPTH = 16;
/** Characters an override may produce while rendering, at any level of detail. */
export const MAX_OVERRIDE_OUTPUT = 1024 * 1024;

/**
 * A Handlebars environment of its own for one rendering of a repository's override: partials are
 * counted as they nest and their output measured as it returns, so a template whose partials call
 * each other twice at every level (2^40 renderings in 2 KB) stops at once with a reason.
 */
function limitedEngine(): typeof Handlebars {
  const engine = createEngine();
  for (const [name, text] of Object.entries(PARTIALS)) engine.registerPartial(name, engine.compile(text, COMPILE));
  const vm = engine.VM as unknown as { invokePartial: (...args: unknown[]) => unknown };
  const invoke = vm.invokePartial;
  let depth = 0;
  const invokePartial = function (this: unknown, ...args: unknown[]): unknown {
    if (++depth > MAX_PARTIAL_DEPTH) throw new Error(`its partials nest deeper than ${MAX_PARTIAL_DEPTH} levels`);
    try {
      const output = invoke.apply(this, args);
      if (typeof output === 'string' && output.length > MAX_OVERRIDE_OUTPUT)
        throw new Error(`it renders more than ${MAX_OVERRIDE_OUTPUT.toLocaleString('en-US')} characters`);
      return output;
    } finally {
      depth--;
    }
  };
  // The environment's own VM object: the runtime module Handlebars shares between environments is left alone.
  (engine as unknown as { VM: unknown }).VM = { ...vm, invokePartial };
  return engine;
}

function renderOverride<N extends TemplateName>(
  text: string,
  levels: Array<() => TemplateModels[N]>,
  limit: number,
  fits: FitsBudget,
): Attempt {
  let compiled: HandlebarsTemplateDelegate;
  try {
    compiled = limitedEngine().compile(text, COMPILE);
    let body = '';
    for (const [index, level] of levels.entries()) {
      const rendered = compiled(level());
      if (rendered.length > MAX_OVERRIDE_OUTPUT)
        return {
          type: 'failed',
          reason: `it renders more than ${MAX_OVERRIDE_OUTPUT.toLocaleString('en-US')} characters`,
        };
      body = tidy(rendered);
      if (body.trim() === '') return { type: 'failed', reason: 'it rendered nothing' };
      if (body.length <= limit && (fits(body, index) || index === levels.length - 1)) return { type: 'rendered', body };
    }
    return { type: 'failed', reason: `it renders ${body.length} characters, more than GitHub's limit of ${limit}` };
  } catch (error) {
    return { type: 'failed', reason: reasonOf(error) };
  }
}

/**
 * Renders a document: the most detailed level (first) whose rendering fits `limit`. With overrides,
 * the repository's template is used when it works; files of the templates directory that are not
 * templates, and an override that does not work, are named at the top of the document. `fits` may
 * ask more of a level than its length (a number of lines); the least detailed level need only fit `limit`.
 */
export function renderDocument<N extends TemplateName>(
  name: N,
  levels: Array<() => TemplateModels[N]>,
  limit: number,
  overrides?: TemplateOverrides,
  fits: FitsBudget = () => true,
): string {
  const notes = (overrides?.ignored ?? []).map((file) => note(`${inlineCode(file.file)} was ignored: ${file.reason}.`));
  const text = overrides?.templates[name];
  if (text !== undefined) {
    const failed = overrides?.failed?.[name];
    const attempt: Attempt = failed
      ? { type: 'failed', reason: failed }
      : renderOverride(text, levels, limit - notes.join('').length, fits);
    if (attempt.type === 'rendered') return notes.join('') + attempt.body;
    const file = inlineCode(overridePath(name));
    const fix = 'this is the built-in template. Fix the file on the default branch.';
    notes.push(note(`${file} could not be used (${escapeText(attempt.reason)}); ${fix}`));
  }
  const prefix = notes.join('');
  return (
    prefix +
    fitBudget(
      levels.map((level) => () => tidy(BUILT_IN[name](level()))),
      limit - prefix.length,
      fits,
    ).body
  );
}

/** Renders one model with no size limit (alert issues, tests). */
export function renderTemplate<N extends TemplateName>(
  name: N,
  model: TemplateModels[N],
  overrides?: TemplateOverrides,
): string {
  return renderDocument(name, [() => model], Number.POSITIVE_INFINITY, overrides);
}

export type { TemplateOverrides };
