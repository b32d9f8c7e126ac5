// The repository's template overrides for `--format markdown`, so the CLI prints what the App posts:
// `.github/driftback/templates/*.hbs` beside the config the command reads (when that config is a
// repository's `.github/driftback.yml`).
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { NO_OVERRIDES, TEMPLATES_DIR, templateOverrides, type TemplateOverrides } from '../core/report/index.js';

export async function templatesBeside(configPath: string | undefined): Promise<TemplateOverrides> {
  const inRepository =
    configPath && basename(configPath) === 'driftback.yml' && basename(dirname(configPath)) === '.github';
  if (!configPath || !inRepository) return NO_OVERRIDES;
  const repository = dirname(dirname(configPath));
  let names: string[];
  try {
    names = await readdir(join(repository, TEMPLATES_DIR));
  } catch {
    return NO_OVERRIDES; // no templates directory: the built-in templates
  }
  const files = new Map<string, string>();
  for (const name of names.sort()) {
    files.set(`${TEMPLATES_DIR}${name}`, await readFile(join(repository, TEMPLATES_DIR, name), 'utf8').catch(() => ''));
  }
  return templateOverrides(files);
}
