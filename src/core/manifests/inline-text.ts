// Inline patches are YAML text inside a kustomization's string value. To point source locations at
// the patch bytes in the kustomization file, offsets inside a literal block scalar (`|`, `|-`) are
// mapped back to the file; any other scalar style maps every offset to the scalar itself.
import { lineStartsOf, locationAt, type SourceLocation } from '../model/index.js';
import type { TrackedNode } from './tracked.js';

export type OffsetMap = (offset: number) => number | undefined;

export function inlineOffsetMap(fileText: string, node: TrackedNode): OffsetMap {
  const location = node.source.location;
  if (!location || node.kind !== 'scalar' || typeof node.value !== 'string') return () => undefined;
  const [start, end] = location.range;
  if (fileText[start] !== '|') return () => undefined;
  const headerEnd = fileText.indexOf('\n', start);
  if (headerEnd < 0 || headerEnd >= end) return () => undefined;
  const body = fileText.slice(headerEnd + 1, end);
  const lines = body.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  if (!Number.isFinite(indent)) return () => undefined;
  // innerStarts[k]: offset in the value where line k begins; fileStarts[k]: where its content begins in the file.
  const innerStarts: number[] = [];
  const fileStarts: number[] = [];
  let inner = 0;
  let file = headerEnd + 1;
  let rebuilt = '';
  for (const line of lines) {
    const stripped = line.slice(Math.min(indent, line.length));
    innerStarts.push(inner);
    fileStarts.push(file + Math.min(indent, line.length));
    inner += stripped.length + 1;
    file += line.length + 1;
    rebuilt += stripped + '\n';
  }
  // Only trust the map when the value really is the de-indented body (chomping aside).
  if (!rebuilt.startsWith(node.value)) return () => undefined;
  return (offset) => {
    let lo = 0;
    let hi = innerStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (innerStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return fileStarts[lo] + (offset - innerStarts[lo]);
  };
}

/** Rewrites every location in a tree parsed from inline text so it points into the kustomization file. */
export function relocate(
  node: TrackedNode,
  fileText: string,
  file: string,
  map: OffsetMap,
  fallback: SourceLocation,
): void {
  const lineStarts = lineStartsOf(fileText);
  const visit = (n: TrackedNode): void => {
    const location = n.source.location;
    if (location) {
      const start = map(location.range[0]);
      const end = map(Math.max(location.range[0], location.range[1] - 1));
      const found = start !== undefined && end !== undefined;
      const endAt = (end ?? 0) + (location.range[1] > location.range[0] ? 1 : 0);
      const located = found ? locationAt(lineStarts, file, fallback.document, start, endAt) : fallback;
      n.source = { ...n.source, location: located };
    }
    if (n.kind === 'map') for (const child of n.entries.values()) visit(child);
    if (n.kind === 'list') for (const child of n.items) visit(child);
  };
  visit(node);
}
