// configMapGenerator / secretGenerator: literals, files and env files become ConfigMaps and
// Secrets. Names get kustomize's content hash at the end of the build (see name-hash.ts), unless
// disableNameSuffixHash is set.
import { fileContent, whyNotRead, type FieldOrigin, type FieldSource, type SourceProblem } from '../model/index.js';
import { lineOf, stringMap, type KustomizationFile } from './kustomization-file.js';
import { isUtf8 } from 'node:buffer';
import { readEnvFile } from './env-file.js';
import { basename, joinPath, outsideDir } from './paths.js';
import type { RenderBudget } from './render-budget.js';
import type { BuildResource } from './resource.js';
import { getString, type TrackedMap, type TrackedNode } from './tracked.js';

export type GeneratorField = 'configMapGenerator' | 'secretGenerator';

export interface GeneratorInputs {
  files: ReadonlyMap<string, string>;
  filesRead: Set<string>;
  problems: SourceProblem[];
  rootOnly?: boolean;
  /** The job's budget: the files a generator reads count as bytes read. */
  meter?: RenderBudget;
}

interface GeneratorOptions {
  labels: Map<string, string>;
  annotations: Map<string, string>;
  disableNameSuffixHash?: boolean;
  immutable?: boolean;
}

export function generate(
  kustomization: KustomizationFile,
  fieldName: GeneratorField,
  entries: TrackedNode[],
  inputs: GeneratorInputs,
): BuildResource[] {
  const defaults = readOptions(
    kustomization.root.entries.get('generatorOptions'),
    kustomization.path,
    'generatorOptions',
    inputs.problems,
  );
  const out: BuildResource[] = [];
  entries.forEach((entry, index) => {
    const origin: FieldOrigin = { type: 'generator', kustomization: kustomization.path, index, generator: fieldName };
    const made = generateOne(kustomization, fieldName, entry, index, origin, defaults, inputs);
    if (made) out.push(made);
  });
  return out;
}

function generateOne(
  kustomization: KustomizationFile,
  fieldName: GeneratorField,
  entry: TrackedNode,
  index: number,
  origin: FieldOrigin,
  defaults: GeneratorOptions,
  inputs: GeneratorInputs,
): BuildResource | undefined {
  const where = `${fieldName}[${index}]`;
  const problem = (message: string, node: TrackedNode = entry): undefined => {
    inputs.problems.push({ file: kustomization.path, line: lineOf(node), field: where, message });
    return undefined;
  };
  if (entry.kind !== 'map') return problem('expected a mapping with name and literals/files/envs');
  const name = getString(entry, ['name']);
  if (!name) return problem('needs a name');
  const data = readData(kustomization, fieldName, entry, where, origin, inputs);
  const options = readOptions(entry.entries.get('options'), kustomization.path, `${where}.options`, inputs.problems);
  const behavior = getString(entry, ['behavior']) ?? 'create';
  if (behavior !== 'create' && behavior !== 'merge' && behavior !== 'replace')
    return problem(`behavior "${behavior}" is not create, merge or replace`);
  const entrySource: FieldSource = { location: entry.source.location, origin };
  const root = generatedObject(fieldName, entry, name, data, mergeOptions(defaults, options), entrySource);
  return {
    root,
    file: kustomization.path,
    document: 0,
    location: entry.source.location ?? { file: kustomization.path, document: 0, range: [0, 0], line: 1, column: 1 },
    kustomizations: [kustomization.path],
    sourceName: name,
    sourceNamespace: getString(entry, ['namespace']),
    names: [name],
    namespaces: [getString(entry, ['namespace']) ?? ''],
    needsHash: !(options.disableNameSuffixHash ?? defaults.disableNameSuffixHash ?? false),
    behavior,
  };
}

/** The object's data; a Secret's values base64-encoded, a key given twice reported (the later value wins). */
function readData(
  kustomization: KustomizationFile,
  fieldName: GeneratorField,
  entry: TrackedMap,
  where: string,
  origin: FieldOrigin,
  inputs: GeneratorInputs,
): GeneratedData {
  const problem = (message: string, node: TrackedNode): void => {
    inputs.problems.push({ file: kustomization.path, line: lineOf(node), field: where, message });
  };
  const data: GeneratedData = { data: new Map(), binaryData: new Map() };
  // A Secret's values are base64 whatever they hold; a ConfigMap's that are not UTF-8 go to binaryData.
  const add = (key: string, value: string | Uint8Array, node: TrackedNode): void => {
    if (data.data.has(key) || data.binaryData.has(key)) problem(`key "${key}" is given twice`, node);
    const secret = fieldName === 'secretGenerator';
    const into = typeof value === 'string' || secret ? data.data : data.binaryData;
    const encoded = typeof value === 'string' && !secret ? value : encodeBase64(value);
    into.set(key, { kind: 'scalar', value: encoded, source: { location: node.source.location, origin } });
  };
  // kustomize reads env files first, then literals, then files (api/kv Load).
  const envs = [...stringItems(entry.entries.get('envs')), ...stringItems(entry.entries.get('env'))];
  for (const item of envs) {
    const content = readInput(kustomization, item.text, item.node, where, inputs);
    if (content === undefined) continue;
    const text = fileContent(content);
    if (typeof text !== 'string') problem(`env file "${item.text}" ${notUtf8(text)}`, item.node);
    else for (const pair of readEnvFile(text)) add(pair.key, pair.value, item.node);
  }
  for (const literal of stringItems(entry.entries.get('literals'))) {
    const eq = literal.text.indexOf('=');
    if (eq <= 0) problem(`literal "${literal.text}" is not KEY=VALUE`, literal.node);
    else add(literal.text.slice(0, eq), unquote(literal.text.slice(eq + 1)), literal.node);
  }
  for (const item of stringItems(entry.entries.get('files'))) {
    const eq = item.text.indexOf('=');
    const key = eq > 0 ? item.text.slice(0, eq) : basename(item.text);
    const content = readInput(kustomization, eq > 0 ? item.text.slice(eq + 1) : item.text, item.node, where, inputs);
    if (content !== undefined) add(key, fileContent(content), item.node);
  }
  return data;
}

interface GeneratedData {
  data: Map<string, TrackedNode>;
  binaryData: Map<string, TrackedNode>;
}

/** kustomize refuses an env file line that is not UTF-8 (api/kv: "line N has invalid utf8 bytes"). */
function notUtf8(bytes: Uint8Array): string {
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(10, start);
    const text = bytes.subarray(start, end < 0 ? bytes.length : end);
    if (!isUtf8(text))
      return `has bytes that are not UTF-8 on line ${line}: kustomize refuses it (line ${line} has invalid utf8 bytes)`;
    if (end < 0) return 'is not UTF-8';
    start = end + 1;
  }
}

function generatedObject(
  fieldName: GeneratorField,
  entry: TrackedMap,
  name: string,
  data: GeneratedData,
  options: GeneratorOptions,
  source: FieldSource,
): TrackedMap {
  const scalar = (value: string | boolean): TrackedNode => ({ kind: 'scalar', value, source });
  const pairs = (values: Map<string, string>): TrackedNode => ({
    kind: 'map',
    entries: new Map([...values].map(([k, v]) => [k, scalar(v)])),
    source,
  });
  const metadata = new Map<string, TrackedNode>([['name', scalar(name)]]);
  const namespace = getString(entry, ['namespace']);
  if (namespace) metadata.set('namespace', scalar(namespace));
  if (options.labels.size > 0) metadata.set('labels', pairs(options.labels));
  if (options.annotations.size > 0) metadata.set('annotations', pairs(options.annotations));
  const isSecret = fieldName === 'secretGenerator';
  const root = new Map<string, TrackedNode>([
    ['apiVersion', scalar('v1')],
    ['kind', scalar(isSecret ? 'Secret' : 'ConfigMap')],
    ['metadata', { kind: 'map', entries: metadata, source }],
  ]);
  if (isSecret) root.set('type', scalar(getString(entry, ['type']) ?? 'Opaque'));
  const sorted = (values: Map<string, TrackedNode>) =>
    new Map([...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // kustomize writes a Secret's `data` even when it is empty (`data: {}`, hashed too), a ConfigMap's only when not.
  if (data.data.size > 0 || isSecret) root.set('data', { kind: 'map', entries: sorted(data.data), source });
  if (data.binaryData.size > 0) root.set('binaryData', { kind: 'map', entries: sorted(data.binaryData), source });
  if (options.immutable) root.set('immutable', scalar(true));
  return { kind: 'map', entries: root, source };
}

function readInput(
  kustomization: KustomizationFile,
  relative: string,
  node: TrackedNode,
  where: string,
  inputs: GeneratorInputs,
): string | undefined {
  const refuse = (message: string): undefined => {
    inputs.problems.push({ file: kustomization.path, line: lineOf(node), field: where, message });
    return undefined;
  };
  const path = joinPath(kustomization.dir, relative);
  if (path === undefined)
    return refuse(
      `"${relative}" leaves the repository: driftback reads only files inside it, so vendor the file into the repository and point at that copy`,
    );
  if (inputs.rootOnly && outsideDir(kustomization.dir, path))
    return refuse(`security; file "${relative}" is not in or below the kustomization's directory`);
  const text = inputs.files.get(path);
  if (text === undefined) return refuse(`file "${relative}" (${path}) does not exist`);
  const notRead = whyNotRead(text);
  if (notRead !== undefined) return refuse(`file "${relative}" (${path}) was not read: ${notRead}`);
  inputs.filesRead.add(path);
  inputs.meter?.charge(path, { bytes: Buffer.byteLength(text, 'utf8') });
  return text;
}

/** Base64 as kustomize writes Secret data and binaryData: lines of 70 characters, each ending in a newline, once it is that long. */
export function encodeBase64(value: string | Uint8Array): string {
  const encoded = (typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value)).toString('base64');
  if (encoded.length < 70) return encoded;
  let out = '';
  for (let i = 0; i < encoded.length; i += 70) out += `${encoded.slice(i, i + 70)}\n`;
  return out;
}

/** A list of strings, or one string (kustomize's `env: file.env`). */
function stringItems(node: TrackedNode | undefined): { text: string; node: TrackedNode }[] {
  if (node?.kind === 'scalar' && node.value !== null) return [{ text: String(node.value), node }];
  if (node?.kind !== 'list') return [];
  return node.items.flatMap((item) =>
    item.kind === 'scalar' && item.value !== null ? [{ text: String(item.value), node: item }] : [],
  );
}

/** kustomize strips one pair of matching quotes around a literal's value. */
function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value[value.length - 1] === value[0])
    return value.slice(1, -1);
  return value;
}

function readOptions(
  node: TrackedNode | undefined,
  file: string,
  fieldName: string,
  problems: SourceProblem[],
): GeneratorOptions {
  if (node?.kind !== 'map') return { labels: new Map(), annotations: new Map() };
  const flag = (key: string): boolean | undefined => {
    const value = node.entries.get(key);
    return value?.kind === 'scalar' && typeof value.value === 'boolean' ? value.value : undefined;
  };
  return {
    labels: stringMap(node.entries.get('labels'), file, `${fieldName}.labels`, problems),
    annotations: stringMap(node.entries.get('annotations'), file, `${fieldName}.annotations`, problems),
    disableNameSuffixHash: flag('disableNameSuffixHash'),
    immutable: flag('immutable'),
  };
}

function mergeOptions(defaults: GeneratorOptions, own: GeneratorOptions): GeneratorOptions {
  return {
    labels: new Map([...defaults.labels, ...own.labels]),
    annotations: new Map([...defaults.annotations, ...own.annotations]),
    disableNameSuffixHash: own.disableNameSuffixHash ?? defaults.disableNameSuffixHash,
    immutable: own.immutable ?? defaults.immutable,
  };
}
