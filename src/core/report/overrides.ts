// Repository template overrides: `.github/driftback/templates/<name>.hbs` on the default branch (for a
// plan comment: at the pull request's base, so a pull request cannot change how its own plan is
// reported). Read from the files the App already holds; a file that is not a template driftback
// renders is named in the documents instead of being ignored silently. Atlantis lets users override
// its comment templates the same way (server/events/templates, `--markdown-template-overrides-dir`).
import { TEMPLATES, type TemplateName } from './templates/index.js';

export const TEMPLATES_DIR = '.github/driftback/templates/';

export interface TemplateOverrides {
  /** Override text by template name. */
  templates: Partial<Record<TemplateName, string>>;
  /** Files in the templates directory that are not used, and why. */
  ignored: Array<{ file: string; reason: string }>;
  /** Overrides that could not be rendered (stopped by a limit of the App), by name, with the reason. */
  failed?: Partial<Record<TemplateName, string>>;
}

export const NO_OVERRIDES: TemplateOverrides = { templates: {}, ignored: [] };

export function overridePath(name: TemplateName): string {
  return `${TEMPLATES_DIR}${name}.hbs`;
}

function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(TEMPLATES, name);
}

/** The overrides among a repository's files (path → text): every `.hbs` file of the templates directory. */
export function templateOverrides(files: ReadonlyMap<string, string>): TemplateOverrides {
  const overrides: TemplateOverrides = { templates: {}, ignored: [] };
  const names = Object.keys(TEMPLATES).join(', ');
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!file.startsWith(TEMPLATES_DIR)) continue;
    const rest = file.slice(TEMPLATES_DIR.length);
    const name = rest.endsWith('.hbs') ? rest.slice(0, -'.hbs'.length) : undefined;
    if (name !== undefined && isTemplateName(name)) overrides.templates[name] = text;
    else {
      const reason = `driftback renders no template of that name (the names are ${names}, each as \`<name>.hbs\`)`;
      overrides.ignored.push({ file, reason });
    }
  }
  return overrides;
}

/** Overrides given by name (the CLI and tests): `{ 'plan-comment': '…' }`. */
export function overridesOf(templates: Partial<Record<TemplateName, string>>): TemplateOverrides {
  return { templates, ignored: [] };
}
