// What `driftback render` prints: the desired objects in a stable order (the same tree prints the same
// text) as multi-document YAML or a JSON list, and one line for each part that was not rendered or
// not checked.
import { stringify } from 'yaml';
import { displayKey, type DesiredObject, type NotRenderedSource } from '../model/index.js';
import { notRenderedPlace } from '../pipeline/index.js';
import { notesBesideNotRendered } from './partial-result.js';
import type { SourceNote } from '../render/index.js';

/** Sorted by group, kind, namespace and name. */
function stableOrder(objects: readonly DesiredObject[]): DesiredObject[] {
  const id = (d: DesiredObject): string => `${d.key.group}\0${d.key.kind}\0${d.key.namespace}\0${d.key.name}`;
  return [...objects].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

export function renderDesiredObjects(objects: readonly DesiredObject[], format: 'yaml' | 'json'): string {
  const sorted = stableOrder(objects).map((desired) => desired.object);
  if (format === 'json') return JSON.stringify(sorted, null, 2) + '\n';
  return sorted.map((obj) => `---\n${stringify(obj, { lineWidth: 0 })}`).join('');
}

/** Each part not rendered, and each source note that leaves something unrendered or unchecked, once. */
export function notRenderedLines(notRendered: readonly NotRenderedSource[], notes: readonly SourceNote[]): string[] {
  const lines = [
    ...notRendered.map((part) => `not rendered: ${notRenderedPlace(part)}: ${part.reason}`),
    ...notesBesideNotRendered(notes, notRendered)
      .filter((note) => note.code === 'unsupported' || note.code === 'out-of-scope' || note.code === 'not-checkable')
      .map(
        (note) =>
          `${note.code === 'not-checkable' ? 'not checked' : 'not rendered'}: ${note.source}: ${note.message}${note.key ? ` (${displayKey(note.key)})` : ''}`,
      ),
  ];
  return [...new Set(lines)];
}
