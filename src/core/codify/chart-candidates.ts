// Which chart values may have produced a field a person changed on a chart's output: every value whose
// text is the field's Git value (the whole of it, or the one part of a string that changed, as an
// image's tag), with the value it would need to render the live one, and the place that sets it — the
// highest-precedence place, or where values are added when only the chart's defaults set it. These are
// only candidates: chart-values.ts renders each and keeps the one that reproduces exactly the live value.
import { splitImage } from '../manifests/images-transformer.js';
import { isPlainObject, type ChartValuePlaces, type ChartValuesWhere, type FieldChange } from '../model/index.js';

type Values = Record<string, unknown>;

export interface ValueCandidate {
  /** The value's path in the values (`['image', 'tag']`). */
  path: string[];
  value: unknown;
  /** The place the edit goes to, for people, and where it is written. */
  label: string;
  at: ChartValuesWhere;
}

export interface Candidates {
  candidates: ValueCandidate[];
  /** Values that match but are set where codify does not write (a Secret, a ConfigMap the repository does not hold). */
  elsewhere: string[];
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Every scalar value and its path, through maps (a list is one value of a chart, not a path). */
function leaves(values: Values, prefix: string[] = [], out: Array<[string[], unknown]> = []) {
  for (const [key, value] of Object.entries(values)) {
    if (isPlainObject(value)) leaves(value, [...prefix, key], out);
    else out.push([[...prefix, key], value]);
  }
  return out;
}

function sets(values: Values, path: readonly string[]): boolean {
  let node: unknown = values;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
  }
  return true;
}

function merged(layers: ChartValuePlaces['layers']): Values {
  const merge = (a: Values, b: Values): Values => {
    const out: Values = { ...a };
    for (const [key, value] of Object.entries(b))
      out[key] = isPlainObject(value) && isPlainObject(out[key]) ? merge(out[key] as Values, value) : value;
    return out;
  };
  return layers.reduce<Values>((all, layer) => merge(all, layer.values), {});
}

/** `text` read as the old value's type: a number stays a number, a string a string. */
function typedLike(old: unknown, text: string): unknown {
  if (typeof old === 'string') return text;
  if (typeof old === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
  if (typeof old === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  return undefined;
}

/** The value `old` must become for the field to read `live`, when the field's Git text is (or holds once) `old`'s. */
export function newValueFor(old: unknown, desired: unknown, live: unknown): unknown {
  if (!isScalar(old) || !isScalar(desired) || !isScalar(live)) return undefined;
  if (String(old) === String(desired)) return typeof old === typeof live ? live : typedLike(old, String(live));
  if (typeof desired !== 'string' || typeof live !== 'string') return undefined;
  const text = String(old);
  const at = text === '' ? -1 : desired.indexOf(text);
  if (at < 0 || desired.indexOf(text, at + 1) >= 0) return undefined;
  const before = desired.slice(0, at);
  const after = desired.slice(at + text.length);
  if (!live.startsWith(before) || !live.endsWith(after) || live.length <= before.length + after.length)
    return undefined;
  return typedLike(old, live.slice(before.length, live.length - after.length));
}

/** An empty tag value a chart fills from its appVersion: the live image's tag, when only the tag changed. */
function emptyTag(path: readonly string[], old: unknown, change: FieldChange): unknown {
  if (old !== '' || !/tag$/i.test(path[path.length - 1] ?? '') || !change.path.endsWith('/image')) return undefined;
  if (typeof change.desired !== 'string' || typeof change.live !== 'string') return undefined;
  const [desired, live] = [splitImage(change.desired), splitImage(change.live)];
  return desired.name === live.name && live.tag && live.tag !== desired.tag ? live.tag : undefined;
}

export function valueCandidates(places: ChartValuePlaces, change: FieldChange): Candidates {
  const found: Candidates = { candidates: [], elsewhere: [] };
  for (const [path, old] of leaves(merged(places.layers))) {
    const value = newValueFor(old, change.desired, change.live) ?? emptyTag(path, old, change);
    if (value === undefined) continue;
    const setter = places.layers.findLastIndex((layer) => sets(layer.values, path));
    const layer = places.layers[setter];
    const place =
      setter < places.defaults ? places.addTo : layer?.at ? { label: layer.label, at: layer.at } : undefined;
    if (place) found.candidates.push({ path, value, ...place });
    else found.elsewhere.push(`${path.join('.')} in ${layer?.label ?? "the chart's default values"}`);
  }
  return found;
}
