// What CLI commands share: their streams, errors that exit 2 with one line, reading files.
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  fileText,
  isKubeObject,
  isPlainObject,
  type KubeObject,
  type Snapshot,
  parseSnapshot,
} from '../core/model/index.js';
import { parseConfig, defaultConfig, type Config, CONFIG_PATH } from '../core/config/index.js';

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** An error the user can fix: printed as one line, exit code 2. */
export class CliError extends Error {}

/** `--help`: the command's `help` on stdout; true when it was asked for (the command then exits 0). */
export function printedHelp(io: CliIO, asked: boolean | undefined, help: string): boolean {
  if (asked) io.stdout.write(help + '\n');
  return asked === true;
}

const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];

/** Files larger than this are not read into a manifest tree (the renderer refuses manifests over 4 MiB). */
const MAX_TREE_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Reads a directory into path → text, paths relative to `root` with `/` separators.
 * Hidden directories (.git, .github) are left out; only manifest files (.yaml .yml .json) and
 * other files under `include` extensions are read. `allText`: every file, as a kustomization may read
 * any of them (generator sources: .env, .properties, .txt, a keystore, …); one that is not UTF-8 is
 * held as its bytes (fileText).
 */
export async function readTree(
  root: string,
  options: { extensions?: string[]; allText?: boolean } = {},
): Promise<Map<string, string>> {
  const extensions = options.allText ? [] : (options.extensions ?? MANIFEST_EXTENSIONS);
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') await walk(full);
      } else if (entry.isFile() && (extensions.length === 0 || extensions.some((ext) => entry.name.endsWith(ext)))) {
        if (options.allText && (await stat(full)).size > MAX_TREE_FILE_BYTES) continue;
        files.set(relative(root, full).split(sep).join('/'), fileText(await readFile(full)));
      }
    }
  };
  const info = await stat(root).catch(() => undefined);
  if (!info) throw new CliError(`${root}: no such file or directory`);
  if (info.isFile()) {
    files.set(root.split(sep).pop()!, fileText(await readFile(root)));
    return files;
  }
  await walk(root);
  return files;
}

export interface LiveInput {
  objects: KubeObject[];
  /** Set when the input was a snapshot document (scope, capturedAt, cluster). */
  snapshot?: Snapshot;
}

/**
 * Reads live state: a snapshot document, a `kubectl get -o json` List, a single object,
 * a YAML/JSON file of several objects, or a directory of such files.
 */
export async function loadLive(path: string): Promise<LiveInput> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new CliError(`--live ${path}: no such file or directory`);
  if (info.isDirectory()) {
    const files = await readTree(path);
    const objects: KubeObject[] = [];
    for (const [file, text] of files) objects.push(...parseLiveText(text, join(path, file)).objects);
    return { objects };
  }
  return parseLiveText(await readFile(path, 'utf8'), path);
}

export function parseLiveText(text: string, file: string): LiveInput {
  const values: unknown[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      values.push(JSON.parse(text));
    } catch (error) {
      throw new CliError(`${file}: invalid JSON: ${(error as Error).message}`);
    }
  } else {
    for (const doc of parseAllDocuments(text)) {
      if ('errors' in doc && doc.errors.length > 0) {
        const first = doc.errors[0];
        throw new CliError(`${file}:${first.linePos?.[0].line ?? 1}: invalid YAML: ${first.message.split('\n')[0]}`);
      }
      values.push(doc.toJS({ maxAliasCount: 100 }));
    }
  }
  if (values.length === 1 && isPlainObject(values[0]) && values[0].kind === 'Snapshot') {
    const parsed = parseSnapshot(values[0]);
    if (!parsed.ok)
      throw new CliError(
        `${file}: not a valid snapshot: ${parsed.problems
          .slice(0, 3)
          .map((p) => `${p.path}: ${p.message}`)
          .join('; ')}`,
      );
    return { objects: parsed.value.items, snapshot: parsed.value };
  }
  const objects: KubeObject[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (isKubeObject(value) && value.kind.endsWith('List') && Array.isArray(value.items))
      (value.items as unknown[]).forEach(collect);
    else if (isKubeObject(value)) objects.push(value);
  };
  values.forEach(collect);
  return { objects };
}

/** Loads `--config`, or `<dir>/.github/driftback.yml` when it exists, or the defaults. */
export async function loadConfig(
  explicit: string | undefined,
  dir: string | undefined,
): Promise<{ config: Config; path?: string }> {
  const path = explicit ?? (dir ? join(dir, CONFIG_PATH) : undefined);
  if (!path) return { config: defaultConfig() };
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' && !explicit) return undefined;
    throw new CliError(`--config ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  if (text === undefined) return { config: defaultConfig() };
  const result = parseConfig(text, path);
  if (!result.ok) {
    const first = result.problems[0];
    throw new CliError(
      `${first.file}${first.line ? ':' + first.line : ''}: ${first.field ? first.field + ': ' : ''}${first.message}`,
    );
  }
  return { config: result.config, path };
}
