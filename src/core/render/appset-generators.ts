// The parameter sets of an ApplicationSet's generators, as applicationset/generators/*.go make them:
// list (`elements`, `elementsYaml`), git directories and files of this repository (git.go: `path`,
// `path.basename`, `path.basenameNormalized`, `path[n]`, `path.filename`, `path.filenameNormalized`,
// or with goTemplate a `path` map with `segments`; `pathParamPrefix`; `values`), matrix (two
// generators, the second interpolated with each set of the first) and merge (`mergeKeys`), and
// clusters from the snapshot's Argo CD cluster Secrets of the instance's namespace — their labels and
// annotations only: a Secret's values (the cluster's name and server) are never in a snapshot. Any other generator is refused.
import { parse, parseAllDocuments } from 'yaml';
import { isPlainObject, type KubeObject } from '../model/index.js';
import { compileArgoGlob, compileGoPathMatch, type Pattern } from '../patterns/index.js';
import { labelSelector } from '../k8s/index.js';
import { optionalString, stringMap } from '../sources/fields.js';
import {
  renderTemplateString,
  renderTemplateTree,
  sanitizeName,
  UnknownParam,
  type Params,
  type TemplateMode,
} from './appset-template.js';
import { printValue } from './gotemplate/go-values.js';

export interface GeneratorContext {
  files: ReadonlyMap<string, string>;
  live: readonly KubeObject[];
  isThisRepository(repoURL: string): boolean;
  mode: TemplateMode;
  /** The namespace of the Argo CD instance that reconciles the ApplicationSet: its cluster Secrets are there. */
  argoNamespace: string;
  /** Collects the files the git files generator reads: a pull request changing one is planned. */
  filesRead?: string[];
}

export type ParamSets = Params[] | { reason: string };

const UNSUPPORTED = ['scmProvider', 'pullRequest', 'plugin', 'clusterDecisionResource'];

/** One generator's parameter sets; `parent`: the first matrix generator's set it is interpolated with. */
export function generatorParams(generator: unknown, context: GeneratorContext, parent?: Params): ParamSets {
  if (!isPlainObject(generator)) return { reason: 'a generator that is not a map' };
  if (parent) {
    const { values, ...rest } = generator;
    const rendered = renderTemplateTree(rest, parent, context.mode);
    if (!rendered.ok) return rendered;
    generator = { ...(rendered.value as Record<string, unknown>), ...(values !== undefined ? { values } : {}) };
  }
  const gen = generator as Record<string, unknown>;
  const name = Object.keys(gen).find((key) => key !== 'selector');
  if (name === undefined) return { reason: 'an empty generator' };
  const body = isPlainObject(gen[name]) ? (gen[name] as Record<string, unknown>) : {};
  if (UNSUPPORTED.includes(name)) return { reason: `${name} generator is not expanded` };
  if (isPlainObject(body.template) && Object.keys(body.template).length > 0)
    return { reason: `the template of a ${name} generator is not expanded` };
  const sets = namedGeneratorParams(name, body, context);
  return gen.selector === undefined || 'reason' in sets ? sets : selectedParams(sets, gen.selector, name);
}

/**
 * A generator's `selector` keeps the parameter sets whose flattened parameters (dot style, values as
 * `%v` prints them) it matches (generator_spec_processor.go Transform); a parameter the snapshot cannot
 * give stops it when the selector reads it.
 */
function selectedParams(sets: Params[], selector: unknown, name: string): ParamSets {
  const chosen = labelSelector(selector);
  if (!chosen.ok) return { reason: `the selector of a ${name} generator: ${chosen.reason}` };
  const kept: Params[] = [];
  for (const set of sets) {
    const flat: Record<string, string> = {};
    const unknown = new Map<string, UnknownParam>();
    flattenInto(set, '', flat, unknown);
    const blind = chosen.keys.find((key) => unknown.has(key));
    if (blind !== undefined) return { reason: unknown.get(blind)!.why };
    if (chosen.matches(flat)) kept.push(set);
  }
  return kept;
}

function flattenInto(value: unknown, prefix: string, flat: Record<string, string>, unknown: Map<string, UnknownParam>) {
  if (value instanceof UnknownParam) unknown.set(prefix, value);
  else if (Array.isArray(value))
    value.forEach((item, i) => flattenInto(item, prefix ? `${prefix}.${i}` : String(i), flat, unknown));
  else if (isPlainObject(value))
    for (const [key, item] of Object.entries(value))
      flattenInto(item, prefix ? `${prefix}.${key}` : key, flat, unknown);
  else flat[prefix] = printValue(value, false);
}

function namedGeneratorParams(name: string, body: Record<string, unknown>, context: GeneratorContext): ParamSets {
  switch (name) {
    case 'list':
      return listParams(body, context);
    case 'git':
      return gitParams(body, context);
    case 'matrix':
      return matrixParams(body, context);
    case 'merge':
      return mergeParams(body, context);
    case 'clusters':
      return clusterParams(body, context);
    default:
      return { reason: `${name} generator is not expanded` };
  }
}

/** `values`: each rendered with the set's own parameters (value_interpolation.go appendTemplatedValues). */
function withValues(sets: readonly Params[], values: Record<string, string>, mode: TemplateMode): ParamSets {
  const out: Params[] = [];
  for (const params of sets) {
    const rendered: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) {
      const text = renderTemplateString(value, params, mode);
      if (!text.ok) return { reason: text.reason };
      rendered[key] = text.text;
    }
    if (Object.keys(rendered).length === 0) out.push(params);
    else if (mode.goTemplate) out.push({ ...params, values: rendered });
    else out.push({ ...params, ...Object.fromEntries(Object.entries(rendered).map(([k, v]) => [`values.${k}`, v])) });
  }
  return out;
}

function listParams(list: Record<string, unknown>, context: GeneratorContext): ParamSets {
  const elements: unknown[] = Array.isArray(list.elements) ? [...list.elements] : [];
  if (typeof list.elementsYaml === 'string') {
    const parsed: unknown = parse(list.elementsYaml);
    if (!Array.isArray(parsed)) return { reason: 'list generator: elementsYaml is not a list' };
    elements.push(...parsed);
  }
  const sets: Params[] = [];
  for (const element of elements) {
    if (!isPlainObject(element)) return { reason: 'list generator: an element that is not a map' };
    if (context.mode.goTemplate) {
      sets.push(element);
      continue;
    }
    const params: Params = {};
    for (const [key, value] of Object.entries(element)) {
      if (key === 'values' && isPlainObject(value)) {
        for (const [name, item] of Object.entries(value)) params[`values.${name}`] = String(item);
      } else if (typeof value === 'string') params[key] = value;
      else return { reason: `list generator: element key ${key} is not a string` };
    }
    sets.push(params);
  }
  return sets;
}

function gitParams(git: Record<string, unknown>, context: GeneratorContext): ParamSets {
  const repoURL = optionalString(git.repoURL) ?? '';
  if (!context.isThisRepository(repoURL)) return { reason: `git generator reads ${repoURL}, another repository` };
  const values = stringMap(git.values);
  const prefix = optionalString(git.pathParamPrefix);
  const items = (key: string) => (Array.isArray(git[key]) ? (git[key] as unknown[]).filter(isPlainObject) : []);
  const directories = items('directories');
  const files = items('files');
  const sets: Params[] = [];
  if (directories.length > 0) {
    const chosen = chosenDirectories(context.files, directories);
    if ('reason' in chosen) return chosen;
    for (const dir of chosen) sets.push(pathParams(dir, undefined, prefix, context.mode));
  } else if (files.length > 0) {
    const found = fileParams(context, files, prefix);
    if ('reason' in found) return found;
    sets.push(...found);
  } else return { reason: 'git generator lists neither directories nor files' };
  return withValues(sets, values, context.mode);
}

/** Every directory of the repository but the root, hidden ones left out (repository.go GetGitDirectories). */
function repositoryDirectories(files: ReadonlyMap<string, string>): string[] {
  const dirs = new Set<string>();
  for (const file of files.keys()) {
    const parts = file.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      if (parts[i - 1]!.startsWith('.')) break;
      dirs.add(parts.slice(0, i).join('/'));
    }
  }
  return [...dirs].sort();
}

/** Directories matched by a `path` (Go's path.Match) and no `exclude: true` one (git.go filterApps). */
function chosenDirectories(
  files: ReadonlyMap<string, string>,
  items: Record<string, unknown>[],
): string[] | { reason: string } {
  const patterns: Array<{ pattern: Pattern; exclude: boolean }> = [];
  for (const item of items) {
    const compiled = compileGoPathMatch(String(item.path ?? ''));
    if (!compiled.ok) return { reason: `git generator directories: ${compiled.message}` };
    patterns.push({ pattern: compiled.pattern, exclude: item.exclude === true });
  }
  return repositoryDirectories(files).filter(
    (dir) =>
      patterns.some((p) => !p.exclude && p.pattern.test(dir)) &&
      !patterns.some((p) => p.exclude && p.pattern.test(dir)),
  );
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1) || '.';
}

/** The `path` parameters of a directory (and of a file in it), flat or as goTemplate's map. */
function pathParams(dir: string, file: string | undefined, prefix: string | undefined, mode: TemplateMode): Params {
  const segments = dir.split('/');
  if (mode.goTemplate) {
    const path: Params = { path: dir, basename: baseName(dir), basenameNormalized: sanitizeName(baseName(dir)) };
    if (file !== undefined)
      Object.assign(path, { filename: baseName(file), filenameNormalized: sanitizeName(baseName(file)) });
    path.segments = segments;
    return prefix ? { [prefix]: { path } } : { path };
  }
  const name = prefix ? `${prefix}.path` : 'path';
  const params: Params = { [name]: dir, [`${name}.basename`]: baseName(dir) };
  if (file !== undefined) params[`${name}.filename`] = baseName(file);
  params[`${name}.basenameNormalized`] = sanitizeName(baseName(dir));
  if (file !== undefined) params[`${name}.filenameNormalized`] = sanitizeName(baseName(file));
  segments.forEach((segment, index) => {
    if (segment !== '') params[`${name}[${index}]`] = segment;
  });
  return params;
}

/** Files matched as `git ls-files -- <path>` matches (wildcards cross `/`), less `exclude: true` ones. */
function fileParams(
  context: GeneratorContext,
  items: Record<string, unknown>[],
  prefix: string | undefined,
): ParamSets {
  const include: Pattern[] = [];
  const exclude: Pattern[] = [];
  for (const item of items) {
    const compiled = compileArgoGlob(String(item.path ?? ''));
    if (!compiled.ok) return { reason: `git generator files: ${compiled.message}` };
    (item.exclude === true ? exclude : include).push(compiled.pattern);
  }
  const chosen = [...context.files.keys()]
    .filter((file) => include.some((p) => p.test(file)) && !exclude.some((p) => p.test(file)))
    .sort();
  context.filesRead?.push(...chosen);
  const sets: Params[] = [];
  for (const file of chosen) {
    const objects = fileObjects(context.files.get(file)!);
    if (!objects) return { reason: `git generator: ${file} is neither a map nor a list of maps` };
    const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
    for (const object of objects) {
      const path = pathParams(dir, file, prefix, context.mode);
      sets.push(context.mode.goTemplate ? { ...object, ...path } : { ...flatten(object), ...path });
    }
  }
  return sets;
}

function fileObjects(text: string): Params[] | undefined {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0]!.errors.length > 0) return undefined;
  const value: unknown = docs[0]!.toJS();
  if (isPlainObject(value)) return [value];
  if (Array.isArray(value) && value.every(isPlainObject)) return value;
  return undefined;
}

/** jeremywohl/flatten DotStyle, values as Go's `%v` prints strings, numbers and bools. */
function flatten(value: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = Array.isArray(value)
    ? value.map((item, i) => [String(i), item] as const)
    : Object.entries(value as Params);
  for (const [key, item] of entries) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(item) || Array.isArray(item)) Object.assign(out, flatten(item, name));
    else out[name] = item === null ? '<nil>' : String(item);
  }
  return out;
}

function childGenerators(body: Record<string, unknown>): unknown[] {
  return Array.isArray(body.generators) ? body.generators : [];
}

/** Two generators; each set of the first with every set of the second, made with it (matrix.go). */
function matrixParams(matrix: Record<string, unknown>, context: GeneratorContext): ParamSets {
  const [first, second, ...more] = childGenerators(matrix);
  if (first === undefined || second === undefined || more.length > 0)
    return { reason: 'matrix generator: exactly two generators are needed' };
  const left = generatorParams(first, context);
  if ('reason' in left) return left;
  const sets: Params[] = [];
  for (const a of left) {
    const right = generatorParams(second, context, a);
    if ('reason' in right) return right;
    for (const b of right) sets.push(context.mode.goTemplate ? deepMerge(b, a) : { ...b, ...a });
  }
  return sets;
}

/** mergo.Merge WithOverride: maps merged key by key, `over` wins. */
function deepMerge(base: Params, over: Params): Params {
  const out: Params = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

/** The first generator's sets, each overridden by the later ones' sets with the same merge keys (merge.go). */
function mergeParams(merge: Record<string, unknown>, context: GeneratorContext): ParamSets {
  const keys = Array.isArray(merge.mergeKeys) ? merge.mergeKeys.map(String) : [];
  const generators = childGenerators(merge);
  if (keys.length === 0 || generators.length < 2)
    return { reason: 'merge generator: mergeKeys and two generators are needed' };
  const byKey = new Map<string, Params>();
  const keyOf = (set: Params) => JSON.stringify(keys.map((key) => set[key] ?? null));
  for (const [index, generator] of generators.entries()) {
    const sets = generatorParams(generator, context);
    if ('reason' in sets) return sets;
    const seen = new Set<string>();
    for (const set of sets) {
      const key = keyOf(set);
      if (seen.has(key)) return { reason: `merge generator: two parameter sets share the merge key ${key}` };
      seen.add(key);
      if (index === 0) byKey.set(key, set);
      else if (byKey.has(key))
        byKey.set(key, context.mode.goTemplate ? deepMerge(byKey.get(key)!, set) : { ...byKey.get(key)!, ...set });
    }
  }
  return [...byKey.values()];
}

const CLUSTER_SECRET_TYPE = 'argocd.argoproj.io/secret-type';
const SECRET_VALUE = new UnknownParam(
  "clusters generator: a cluster's name, server and project are values of its Secret, which the snapshot never holds",
);

/**
 * The cluster Secrets of the Argo CD instance's namespace that the selector picks (cluster.go
 * getSecretsByClusterName: `client.InNamespace`, `matchLabels` and `matchExpressions`),
 * as parameter sets without their values; the local cluster last, only without a selector and when no
 * Secret stands for it; with `flatList: true`, one set whose `clusters` lists them all.
 */
function clusterParams(clusters: Record<string, unknown>, context: GeneratorContext): ParamSets {
  const selector = isPlainObject(clusters.selector) ? clusters.selector : {};
  const chosen = labelSelector(selector);
  if (!chosen.ok) return { reason: `clusters generator: selector: ${chosen.reason}` };
  const secrets = context.live.filter(
    (obj) =>
      obj.kind === 'Secret' &&
      obj.metadata?.namespace === context.argoNamespace &&
      obj.metadata?.labels?.[CLUSTER_SECRET_TYPE] === 'cluster',
  );
  const picked = secrets.filter((secret) => chosen.matches(secret.metadata?.labels ?? {}));
  const sets: Params[] = picked.map((secret) => secretParams(secret, context.mode));
  const selects = ['matchLabels', 'matchExpressions'].some(
    (field) => Object.keys((selector[field] as object | undefined) ?? {}).length > 0,
  );
  if (!selects) {
    if (secrets.length > 0)
      return {
        reason: 'clusters generator: whether a cluster Secret stands for the local cluster is one of its values',
      };
    sets.push({
      name: 'in-cluster',
      nameNormalized: 'in-cluster',
      server: 'https://kubernetes.default.svc',
      project: '',
    });
  }
  const valued = withValues(sets, stringMap(clusters.values), context.mode);
  if ('reason' in valued || clusters.flatList !== true) return valued;
  return [{ clusters: valued }];
}

function secretParams(secret: KubeObject, mode: TemplateMode): Params {
  const labels = secret.metadata?.labels ?? {};
  const annotations = secret.metadata?.annotations ?? {};
  const unknown = { name: SECRET_VALUE, nameNormalized: SECRET_VALUE, server: SECRET_VALUE, project: SECRET_VALUE };
  if (mode.goTemplate) return { ...unknown, metadata: { labels, annotations } };
  const params: Params = { ...unknown };
  for (const [key, value] of Object.entries(labels)) params[`metadata.labels.${key}`] = value;
  for (const [key, value] of Object.entries(annotations)) params[`metadata.annotations.${key}`] = value;
  return params;
}
