// A repository chart's own default values, read from its archive (`helm package`'s gzipped tar): the
// chart's values.yaml and each subchart's (a directory under charts/, or a packaged subchart one level
// down), so codify can tell a value only the chart's defaults set and add it where values are added.
// Bounded: the archive is unpacked at most to MAX_BYTES, and only the values files are kept.
import { gunzipSync } from 'node:zlib';
import { chartDefaultValues } from '../core/manifests/index.js';

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
