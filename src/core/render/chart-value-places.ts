// Where a release's chart values are set, lowest precedence first, as each controller reads them: the
// chart's own defaults, then every place a person writes values (Flux `chart.spec.valuesFiles`,
// `valuesFrom`, `spec.values`; Argo CD `valueFiles`, `valuesObject`/`values`, `parameters`). Codify uses
// it to write a hand change under a chart into the value that sets it (codify/chart-values.ts).
import { chartDefaultValues, readEnvFile } from '../manifests/index.js';
import { readValues, setPathValue, secretPlaceholder, type ChartLocation, type Values } from '../charts/index.js';
import { posix } from 'node:path';
import { parse } from 'yaml';
import {
  basename,
  dirname,
  isPlainObject,
  joinPath,
  placePointer,
  type SourceLocation,
  type ChartValuePlaces,
  type ChartValuesLayer,
  type ChartValuesWhere,
  type DesiredObject,
  type PathSegment,
} from '../model/index.js';
import { field, optionalString, stringList } from '../sources/fields.js';
import type { ObjectLookup } from './helmrelease-render.js';

/** The chart's own defaults: its values.yaml (unless `replaced`) and its subcharts'. */
function defaultsLayer(chart: ChartLocation, replaced = false): ChartValuesLayer[] {
  if (chart.type !== 'files') return [];
  const files = new Map(chart.files);
  if (replaced) files.delete('values.yaml');
  return [{ label: "the chart's default values", values: chartDefaultValues(files) }];
}

/** A whole values file of the repository, editable in place. */
function fileLayer(path: string, text: string | undefined): ChartValuesLayer[] {
  if (text === undefined) return [];
  const read = readValues(text);
  if ('problem' in read) return [];
  return [{ label: path, values: read.values, at: { type: 'file', file: path, document: 0, path: [] } }];
}

/** The file a configMapGenerator `files` entry reads for `key` (`values.yaml`, `values.yaml=prod.yaml`). */
function generatorFile(location: SourceLocation, key: string, files: ReadonlyMap<string, string>): string | undefined {
  let item: unknown;
  try {
    item = parse(files.get(location.file)?.slice(location.range[0], location.range[1]) ?? '');
  } catch {
    return undefined;
  }
  if (typeof item !== 'string') return undefined;
  const eq = item.indexOf('=');
  const path = joinPath(dirname(location.file), eq > 0 ? item.slice(eq + 1) : item);
  return (eq > 0 ? item.slice(0, eq) : basename(item)) === key && path && files.has(path) ? path : undefined;
}

type Held = { key: DesiredObject['key']; field: PathSegment[] };

/**
 * A generator `literals` entry `KEY=VALUE` (a plain or quoted YAML string): the whole scalar, and the text
 * around the value. kustomize strips one pair of matching quotes around VALUE (kv.go removeQuotes): kept.
 */
function literalValue(location: SourceLocation, key: string, text: string, holds: Held): ChartValuesWhere | undefined {
  const [start, end] = location.range;
  let entry: unknown;
  try {
    entry = parse(text.slice(start, end));
  } catch {
    return undefined;
  }
  if (typeof entry !== 'string' || !entry.startsWith(`${key}=`)) return undefined;
  const value = entry.slice(key.length + 1);
  const quote =
    value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0] ? value[0] : '';
  const literal = { before: `${key}=${quote}`, after: quote };
  return { type: 'text', file: location.file, range: [start, end], holds, literal };
}

/** The one line of an `envs` file that sets `key`: its value's characters, up to a `\r` or the line's end. */
function envLine(
  file: string,
  key: string,
  files: ReadonlyMap<string, string>,
  holds: Held,
): ChartValuesWhere | undefined {
  const text = files.get(file);
  const pairs = text === undefined ? [] : readEnvFile(text).filter((pair) => pair.key === key);
  if (text === undefined || pairs.length !== 1) return undefined;
  const lines = text.split('\n');
  const index = pairs[0]!.line - 1;
  const start = lines.slice(0, index).reduce((sum, line) => sum + line.length + 1, 0);
  const line = lines[index]!;
  const eq = line.indexOf('=');
  if (eq < 0) return undefined;
  return { type: 'text', file, range: [start + eq + 1, start + line.length - (line.endsWith('\r') ? 1 : 0)], holds };
}

/** With `targetPath`, a generated ConfigMap key is the value itself: its `literals` entry or `envs` line. */
function generatorLine(
  location: SourceLocation,
  key: string,
  files: ReadonlyMap<string, string>,
  holds: Held,
): ChartValuesWhere | undefined {
  const text = files.get(location.file);
  if (text === undefined) return undefined;
  const literal = literalValue(location, key, text, holds);
  if (literal) return literal;
  let item: unknown;
  try {
    item = parse(text.slice(location.range[0], location.range[1]));
  } catch {
    return undefined;
  }
  const file = typeof item === 'string' ? joinPath(dirname(location.file), item) : undefined;
  return file ? envLine(file, key, files, holds) : undefined;
}

/**
 * Where a ConfigMap key a `valuesFrom` reads is edited: the file a configMapGenerator reads it from, the
 * YAML text of a ConfigMap manifest's key, or (`targetPath`) that key's string as the whole value.
 */
function configMapPlace(
  desired: DesiredObject,
  key: string,
  targetPath: string | undefined,
  files: ReadonlyMap<string, string>,
): ChartValuesWhere | undefined {
  const field: PathSegment[] = ['data', key];
  const source = desired.source.fields[placePointer(field)];
  if (!source?.location) return undefined;
  if (source.origin.type === 'generator') {
    const holds = { key: desired.key, field };
    if (targetPath) return generatorLine(source.location, key, files, holds);
    const file = generatorFile(source.location, key, files);
    return file ? { type: 'file', file, document: 0, path: [], holds } : undefined;
  }
  if (source.origin.type !== 'resource' && source.origin.type !== 'patch') return undefined;
  return targetPath
    ? { type: 'object', key: desired.key, path: field, parameter: true }
    : { type: 'embedded', key: desired.key, field, path: [] };
}

/** One `valuesFrom` entry: what it sets, and where, when it is a ConfigMap of the repository (a Secret never). */
function valuesFromLayer(
  namespace: string,
  ref: Record<string, unknown>,
  lookup: ObjectLookup,
  files: ReadonlyMap<string, string>,
): ChartValuesLayer {
  const kind = ref.kind === 'Secret' ? 'Secret' : 'ConfigMap';
  const name = String(ref.name ?? '');
  const key = optionalString(ref.valuesKey) ?? 'values.yaml';
  const targetPath = optionalString(ref.targetPath);
  const label = `valuesFrom ${kind} ${namespace}/${name} key ${key}`;
  const object = kind === 'ConfigMap' ? lookup('ConfigMap', namespace, name) : undefined;
  const desired = kind === 'ConfigMap' ? lookup.desired?.('ConfigMap', namespace, name) : undefined;
  const place = desired ? configMapPlace(desired, key, targetPath, files) : undefined;
  const at = place ? { at: place } : {};
  const data = isPlainObject(object?.data) ? object.data[key] : undefined;
  const text = kind === 'Secret' ? `'${secretPlaceholder(0)}'` : typeof data === 'string' ? data : undefined;
  const values: Values = {};
  if (text !== undefined && targetPath) setPathValue(values, targetPath, text);
  else if (text !== undefined) {
    const read = readValues(text);
    if (!('problem' in read)) return { label: fileLabel(label, place), values: read.values, ...at };
  }
  return { label: fileLabel(label, place), values, ...at };
}

/** A generated ConfigMap's values are edited in the file the generator reads: the label names it. */
function fileLabel(label: string, place: ChartValuesWhere | undefined): string {
  return place?.type === 'file' ? `${place.file} (${label})` : label;
}

/** helm-controller's order: valuesFiles (in place of the chart's values.yaml), valuesFrom, spec.values. */
export function fluxValuePlaces(
  declared: DesiredObject,
  chart: ChartLocation,
  files: ReadonlyMap<string, string>,
  lookup: ObjectLookup,
): ChartValuePlaces {
  const obj = declared.object;
  const namespace = obj.metadata?.namespace ?? '';
  // A repository chart's valuesFiles are files of its archive: with them, they are its defaults.
  const valuesFiles = chart.type === 'files' ? stringList(field(obj, 'spec', 'chart', 'spec', 'valuesFiles')) : [];
  const layers = defaultsLayer(chart, valuesFiles.length > 0);
  const defaults = layers.length;
  for (const file of valuesFiles) {
    const path = sourceRootPath(file);
    layers.push(...fileLayer(path, files.get(path)));
  }
  const refs = field(obj, 'spec', 'valuesFrom');
  for (const ref of Array.isArray(refs) ? refs : [])
    if (isPlainObject(ref)) layers.push(valuesFromLayer(namespace, ref, lookup, files));
  const own = field(obj, 'spec', 'values');
  const label = `spec.values of HelmRelease ${namespace}/${obj.metadata?.name ?? ''}`;
  const at = { type: 'object' as const, key: declared.key, path: ['spec', 'values'] as PathSegment[] };
  layers.push({ label, values: isPlainObject(own) ? own : {}, at });
  const archive = chart.type === 'repository' ? { archiveDefaults: true as const } : {};
  return { layers, defaults, addTo: { label, at }, ...archive };
}

/** A Flux `valuesFiles` path of a chart of a source: relative to the source's root, never leaving it (SecureJoin). */
export function sourceRootPath(file: string): string {
  return posix.join('/', file).slice(1).replace(/\/$/, '');
}

/**
 * The repo-server's order: valueFiles, then `valuesObject` (or the `values` text, not edited: YAML in a
 * string), then each `parameters` entry (its `value` scalar). `helmPath`: where `helm` sits in the
 * Application (`spec.source.helm`); absent when codify cannot say (no place is edited then).
 */
export function argoValuePlaces(
  declared: DesiredObject | undefined,
  helm: Record<string, unknown>,
  chart: ChartLocation,
  valueFiles: ReadonlyArray<{ path: string; text: string }>,
  helmPath: PathSegment[] | undefined,
): ChartValuePlaces {
  const layers = defaultsLayer(chart);
  const defaults = layers.length;
  for (const file of valueFiles) layers.push(...fileLayer(file.path, file.text));
  const name = `Application ${declared?.key.namespace ?? ''}/${declared?.key.name ?? ''}`;
  const on = (path: PathSegment[], parameter?: true): ChartValuesWhere | undefined =>
    declared && helmPath
      ? { type: 'object', key: declared.key, path: [...helmPath, ...path], ...(parameter ? { parameter } : {}) }
      : undefined;
  const objectAt = on(['valuesObject']);
  const valuesObject = { label: `helm.valuesObject of ${name}`, ...(objectAt ? { at: objectAt } : {}) };
  const textAt: ChartValuesWhere | undefined =
    declared && helmPath
      ? { type: 'embedded', key: declared.key, field: [...helmPath, 'values'], path: [] }
      : undefined;
  const valuesText = { label: `helm.values of ${name}`, ...(textAt ? { at: textAt } : {}) };
  if (isPlainObject(helm.valuesObject)) layers.push({ ...valuesObject, values: helm.valuesObject });
  else if (typeof helm.values === 'string') {
    const read = readValues(helm.values);
    layers.push({ ...valuesText, values: 'problem' in read ? {} : read.values });
  }
  const parameters = Array.isArray(helm.parameters) ? helm.parameters : [];
  parameters.forEach((p, index) => {
    if (!isPlainObject(p) || typeof p.name !== 'string') return;
    const values: Values = {};
    setPathValue(values, p.name, p.forceString === true ? `'${String(p.value ?? '')}'` : String(p.value ?? ''));
    const at = on(['parameters', { index }, 'value'], true);
    layers.push({ label: `helm.parameters ${p.name} of ${name}`, values, ...(at ? { at } : {}) });
  });
  // Values are added to the `values` text when the source has one (and no valuesObject), else to valuesObject.
  const textPlace = typeof helm.values === 'string' && !isPlainObject(helm.valuesObject);
  const addAt = textPlace ? textAt : objectAt;
  const addTo = addAt ? { addTo: { label: textPlace ? valuesText.label : valuesObject.label, at: addAt } } : {};
  const archive = chart.type === 'repository' ? { archiveDefaults: true as const } : {};
  return { layers, defaults, ...addTo, ...archive };
}
