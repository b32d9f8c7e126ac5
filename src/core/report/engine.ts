// Handlebars with driftback's helpers. Templates are plain Markdown; every value goes through a
// helper that escapes it for where it lands ({{text}}, {{code}}, {{block}}), so a template cannot
// forget to escape: the engine itself never HTML-escapes (noEscape) and views carry raw values.
import Handlebars from 'handlebars';
import { codeBlock, escapeText, inlineCode } from './escape.js';
import { TEMPLATES, type TemplateName } from './templates/index.js';

/** Repository overrides (`.github/driftback/<name>.hbs`), read by the edge and passed in. */
export type TemplateOverrides = Partial<Record<TemplateName, string>>;

function createEngine(): typeof Handlebars {
  const engine = Handlebars.create();
  engine.registerHelper('text', (value: unknown) => escapeText(value));
  engine.registerHelper('code', (value: unknown) => inlineCode(value));
  engine.registerHelper('block', (value: unknown, language: unknown) => codeBlock(String(value ?? ''), typeof language === 'string' ? language : ''));
  engine.registerHelper('plural', (count: unknown, word: unknown) => `${count} ${word}${count === 1 ? '' : 's'}`);
  engine.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  return engine;
}

// One engine and the built-in templates compiled once: they are constants, and compiling them per
// rendering made a 2,000-resource plan several times slower.
const ENGINE = createEngine();
const BUILT_IN = Object.fromEntries(
  (Object.keys(TEMPLATES) as TemplateName[]).map((name) => [name, ENGINE.compile(TEMPLATES[name], { noEscape: true, strict: false })]),
) as Record<TemplateName, HandlebarsTemplateDelegate>;

/** Renders a template with the view; a broken override falls back to the built-in one, and says so. */
export function renderTemplate(name: TemplateName, view: object, overrides: TemplateOverrides = {}): string {
  const engine = ENGINE;
  const override = overrides[name];
  if (override !== undefined) {
    try {
      return engine.compile(override, { noEscape: true, strict: false })(view).trim() + '\n';
    } catch (error) {
      const reason = escapeText((error as Error).message.split('\n')[0]);
      return `> **Note:** \`.github/driftback/${name}.hbs\` could not be rendered (${reason}); the built-in template was used.\n\n` + renderTemplate(name, view);
    }
  }
  return BUILT_IN[name](view).replace(/\n{3,}/g, '\n\n').trim() + '\n';
}
