// The values a chart sets itself, the lowest layer of every release's values: its values.yaml, and each
// vendored subchart's (charts/<name>/values.yaml) under the subchart's name, below the parent's, as Helm
// coalesces them. Codify reads them to tell a value only the chart's defaults set.
import { parse } from 'yaml';
import { isPlainObject } from '../model/index.js';

type Values = Record<string, unknown>;

function readMap(text: string | undefined): Values {
  if (text === undefined) return {};
  try {
    const parsed: unknown = parse(text, { uniqueKeys: false, maxAliasCount: 100 });
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function under(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const before = out[key];
    out[key] = isPlainObject(value) && isPlainObject(before) ? under(before, value) : value;
  }
  return out;
}

/** `files`: the chart's files, relative to its root. */
export function chartDefaultValues(files: ReadonlyMap<string, string>): Values {
  let values: Values = {};
  for (const [path, text] of files) {
    const sub = /^charts\/([^/]+)\/values\.yaml$/.exec(path);
    if (sub) values = under(values, { [sub[1]!]: readMap(text) });
  }
  return under(values, readMap(files.get('values.yaml')));
}
