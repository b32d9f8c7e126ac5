// An ApplicationSet Go template rendered with parameters: the text, or `ERROR: <reason>` when the
// render stops, so a table can name either.
import { renderTemplateString } from '../../src/core/render/appset-template.js';

export function renderGo(text: string, params: Record<string, unknown> = {}, missingKeyError = false): string {
  const rendered = renderTemplateString(text, params, { goTemplate: true, missingKeyError });
  return rendered.ok ? rendered.text : `ERROR: ${rendered.reason}`;
}
