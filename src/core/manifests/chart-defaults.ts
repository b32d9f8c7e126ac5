// The values a chart sets itself, the lowest layer of every release's values: its values.yaml, and each
// vendored subchart's (charts/<name>/values.yaml) under the subchart's name, below the parent's, as Helm
// coalesces them. Codify reads them to tell a value only the chart's defaults set. A chart's values
// files are the same render after render while the chart is unchanged, and parsing them costs more than
// the rest of a cached render: the last few results are kept by the files' text, and each caller gets
// its own copy.
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

/** Results kept, by the values files' paths and text (compared in place: no key is built from 100 KiB of text). */
const KEPT = 16;
const kept: Array<{ read: [string, string][]; values: Values }> = [];

const sameFiles = (a: readonly [string, string][], b: readonly [string, string][]): boolean =>
  a.length === b.length && a.every(([path, text], i) => path === b[i]![0] && text === b[i]![1]);

/** `files`: the chart's files, relative to its root. */
export function chartDefaultValues(files: ReadonlyMap<string, string>): Values {
  const read: [string, string][] = [];
  for (const [path, text] of files)
    if (path === 'values.yaml' || /^charts\/[^/]+\/values\.yaml$/.test(path)) read.push([path, text]);
  let values = kept.find((entry) => sameFiles(entry.read, read))?.values;
  if (!values) {
    values = {};
    for (const [path, text] of read) {
      const sub = /^charts\/([^/]+)\/values\.yaml$/.exec(path);
      if (sub) values = under(values, { [sub[1]!]: readMap(text) });
    }
    values = under(values, readMap(files.get('values.yaml')));
    kept.push({ read, values });
    if (kept.length > KEPT) kept.shift();
  }
  return structuredClone(values);
}
