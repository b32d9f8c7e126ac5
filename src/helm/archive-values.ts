// A repository chart's own default values, read from its archive (`helm package`'s gzipped tar): the
// chart's values.yaml and each subchart's (a directory under charts/, or a packaged subchart one level
// down), so codify can tell a value only the chart's defaults set and add it where values are added.
// Bounded: the archive is unpacked at most to MAX_BYTES, and only the values files are kept. A Flux
// HelmChart's `valuesFiles` are read from the archive too, as source-controller's remote builder reads
// them (mergeChartValues), and replace its values.yaml.
import { posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { mergeValues, readValues } from '../core/charts/index.js';
import { chartDefaultValues } from '../core/manifests/index.js';
import { fileText } from '../core/model/index.js';

type Values = Record<string, unknown>;

/** Bytes an unpacked archive (or a packaged subchart) may have. */
const MAX_BYTES = 64 * 1024 * 1024;

function field(block: Buffer, start: number, length: number): string {
  const text = block.subarray(start, start + length).toString('utf8');
  const end = text.indexOf('\0');
  return end < 0 ? text : text.slice(0, end);
}

/** Every regular file of a tar, by path (ustar prefix and PAX `path` records honoured). */
function tarFiles(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) break;
    const type = field(header, 156, 1);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    if (type === 'x') longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
    else if (type === 'L') longName = field(body, 0, body.length);
    else if (type === '0' || type === '') files.set(name, body);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

function unpack(archive: Buffer): Map<string, Buffer> | undefined {
  try {
    return tarFiles(gunzipSync(archive, { maxOutputLength: MAX_BYTES }));
  } catch {
    return undefined;
  }
}

/** The chart's values files, relative to its root (`values.yaml`, `charts/<name>/values.yaml`). */
function valuesFiles(files: Map<string, Buffer>, nested: boolean): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, body] of files) {
    const inChart = path.slice(path.indexOf('/') + 1);
    if (inChart === 'values.yaml' || /^charts\/[^/]+\/values\.yaml$/.test(inChart))
      out.set(inChart, body.toString('utf8'));
    const packaged = /^charts\/[^/]+\.tgz$/.test(inChart) && !nested ? unpack(body) : undefined;
    for (const [sub, text] of packaged ? valuesFiles(packaged, true) : [])
      if (sub === 'values.yaml') {
        const name = [...packaged!.keys()][0]?.split('/')[0];
        if (name) out.set(`charts/${name}/values.yaml`, text);
      }
  }
  return out;
}

/** The archive's chart defaults, or undefined when it is not a chart archive this can read. */
export function archiveDefaults(archive: Buffer): Values | undefined {
  const files = unpack(archive);
  if (!files || files.size === 0) return undefined;
  return chartDefaultValues(valuesFiles(files, false));
}

/** Files of the chart's root Helm keeps apart from its `Files` (so `valuesFiles` cannot name them). */
const NOT_FILES =
  /^(?:Chart\.yaml|values\.schema\.json|requirements\.(?:yaml|lock)|Chart\.lock|templates\/.*|charts\/.*)$/;

/** `valuesFiles` merged in order (later wins): `values.yaml` is the chart's own; a missing one fails unless ignored. */
function mergeArchiveValues(
  chart: Map<string, Buffer>,
  listed: { paths: string[]; ignoreMissing: boolean },
): { values: Values } | { reason: string } {
  const failed = (why: string) => ({ reason: `values files merge error: failed to merge chart values: ${why}` });
  let merged: Values = {};
  for (const path of listed.paths) {
    const clean = posix.normalize(path);
    const body = clean === 'values.yaml' || !NOT_FILES.test(clean) ? chart.get(clean) : undefined;
    if (body === undefined) {
      if (listed.ignoreMissing) continue;
      return failed(`no values file found at path '${path}'`);
    }
    const read = readValues(body.toString('utf8'));
    if ('problem' in read) return failed(`unmarshaling values from '${path}' failed: ${read.problem}`);
    merged = mergeValues(merged, read.values);
  }
  return { values: merged };
}

/**
 * The archive's chart as files (relative to its root) with `valuesFiles` merged into its values.yaml, and
 * its defaults so replaced; or why not (Flux's message when a file is missing).
 */
export function chartWithValuesFiles(
  archive: Buffer,
  listed: { paths: string[]; ignoreMissing: boolean },
): { files: Map<string, string>; defaults: Values } | { reason: string } {
  const unpacked = unpack(archive);
  if (!unpacked || unpacked.size === 0) return { reason: 'the chart archive is not a gzipped tar' };
  const chart = new Map<string, Buffer>();
  for (const [path, body] of unpacked) chart.set(path.slice(path.indexOf('/') + 1), body);
  if (!chart.has('values.yaml'))
    return { reason: 'values files merge error: failed to locate values file: values.yaml' };
  const merged = mergeArchiveValues(chart, listed);
  if ('reason' in merged) return merged;
  const text = Object.keys(merged.values).length > 0 ? JSON.stringify(merged.values) : '';
  const files = new Map([...chart].map(([path, body]) => [path, fileText(body)]));
  files.set('values.yaml', text);
  const defaults = valuesFiles(unpacked, false).set('values.yaml', text);
  return { files, defaults: chartDefaultValues(defaults) };
}
