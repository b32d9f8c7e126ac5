// Chart values as the controllers combine them. Flux helm-controller (internal/chartutil/values.go
// ChartValuesFromReferences): each `valuesFrom` in order — the key's YAML merged in (transform.MergeMaps:
// maps deep, the later value wins), or with `targetPath` the text set at that path as Helm's `--set`
// parser sets it (quoted: a string; unquoted: typed) — then `spec.values` merged on top.
import { parse } from 'yaml';
import { isPlainObject, type ChartValuePlaces, type FieldSource } from '../model/index.js';

export type Values = Record<string, unknown>;

/** transform.MergeMaps: `b` over `a`, maps merged key by key, anything else replaced. */
export function mergeValues(a: Values, b: Values): Values {
  const out: Values = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const before = out[key];
    out[key] = isPlainObject(value) && isPlainObject(before) ? mergeValues(before, value) : value;
  }
  return out;
}

/** A values document (a ConfigMap key, a values file): a map, or why not. */
export function readValues(text: string): { values: Values } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = parse(text, { uniqueKeys: false, maxAliasCount: 100 });
  } catch (error) {
    return { problem: `not YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  if (parsed === null || parsed === undefined) return { values: {} };
  if (!isPlainObject(parsed)) return { problem: 'not a map of values' };
  return { values: parsed };
}

/** `a.b\.c[0].d` → ['a', 'b.c', 0, 'd'] (strvals: `\.` escapes a dot, `[n]` indexes a list). */
export function pathSegments(path: string): Array<string | number> | undefined {
  const segments: Array<string | number> = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\' && i + 1 < path.length) current += path[++i];
    else if (c === '.') {
      if (current) segments.push(current);
      current = '';
    } else if (c === '[') {
      const end = path.indexOf(']', i);
      const index = end > i ? path.slice(i + 1, end) : '';
      if (!/^\d+$/.test(index) || Number(index) > 65536) return undefined;
      if (current) segments.push(current);
      current = '';
      segments.push(Number(index));
      i = end;
    } else current += c;
  }
  if (current) segments.push(current);
  return segments.length > 0 ? segments : undefined;
}

/** strvals' typed value of an unquoted `--set` value: booleans, null, integers, else the string. */
function typedValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d{0,17})$/.test(text)) return Number(text);
  return text;
}

/** Flux's ReplacePathValue: a quoted value is set as a string, an unquoted one typed; returns false for a bad path. */
export function setPathValue(values: Values, path: string, text: string): boolean {
  const segments = pathSegments(path);
  if (!segments) return false;
  const quoted = /^(['"]).*\1$/s.test(text) && text.length >= 2;
  const value = quoted ? text.replace(/^['"]+|['"]+$/g, '') : typedValue(text);
  let node: unknown = values;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    const next = segments[i + 1];
    const container = node as Record<string | number, unknown>;
    if (typeof segment === 'number' && !Array.isArray(node)) return false;
    if (typeof segment === 'string' && !isPlainObject(node)) return false;
    if (last) {
      container[segment] = value;
      break;
    }
    const child = container[segment];
    const wanted = typeof next === 'number' ? Array.isArray(child) : isPlainObject(child);
    if (!wanted) container[segment] = typeof next === 'number' ? [] : {};
    node = container[segment];
  }
  return true;
}

/** A chart output's origin with the repository chart's own defaults (read from its archive) as the lowest layer. */
export function withArchiveDefaults(origin: FieldSource, defaults: Values | undefined): FieldSource {
  const places = origin.origin.type === 'source-transform' ? origin.origin.values : undefined;
  if (!places?.archiveDefaults || !defaults || places.defaults > 0) return origin;
  const layers = [{ label: "the chart's default values", values: defaults }, ...places.layers];
  const values: ChartValuePlaces = { layers, defaults: 1, ...(places.addTo ? { addTo: places.addTo } : {}) };
  return { ...origin, origin: { ...origin.origin, values } as FieldSource['origin'] };
}
