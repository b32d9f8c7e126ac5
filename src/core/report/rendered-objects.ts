// What `driftback render` prints: the desired objects in a stable order (the same tree prints the same
// text) as multi-document YAML or a JSON list, and one line for each part that was not rendered or
// not checked. A Secret's values are shown masked (`‹from Secret ns/name›`), as in every other output.
import { stringify } from 'yaml';
import { maskSecretValues } from '../k8s/index.js';
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
  // A Secret's values are never printed, even those Git holds in the clear: masked with where they come from.
  const sorted = stableOrder(objects).map((desired) => maskSecretValues(desired.object));
  if (format === 'json') return JSON.stringify(sorted, null, 2) + '\n';
  return sorted.map((obj) => `---\n${stringify(obj, { lineWidth: 0 })}`).join('');
}

/** What `render` says on stderr besides the objects, and whether the objects are all of the cluster's desired state. */
interface RenderAccount {
  /** One line each: a part not rendered, a field not checked, a source of another repository left out. */
  lines: string[];
  /** Something of this repository was not rendered: the output is partial. */
  partial: boolean;
}

/** The line of a note: what it says of the source, the source named once. */
function noteLine(note: SourceNote): string | undefined {
  const what = `${note.message}${note.key ? ` (${displayKey(note.key)})` : ''}`;
  if (note.code === 'unsupported') return `not rendered: ${note.source}: ${what}`;
  if (note.code === 'not-checkable') return `not checked: ${note.source}: ${what}`;
  // Another repository's objects are that repository's desired state, not this one's: left out, not missing.
  if (note.code === 'out-of-scope') return `out of scope: ${what}`;
  return undefined;
}

/**
 * Each part not rendered, each source note that leaves something unrendered or unchecked, and each source
 * of another repository left out (`outOfScope`: their names), once.
 */
export function renderAccount(
  notRendered: readonly NotRenderedSource[],
  notes: readonly SourceNote[],
  outOfScope: readonly string[] = [],
): RenderAccount {
  const noted = notesBesideNotRendered(notes, notRendered).filter((note) => noteLine(note) !== undefined);
  const said = new Set(noted.filter((note) => note.code === 'out-of-scope').map((note) => note.source));
  const lines = [
    ...notRendered.map((part) => `not rendered: ${notRenderedPlace(part)}: ${part.reason}`),
    ...noted.map((note) => noteLine(note)!),
    // A source left out without a note of its own (a HelmRelease whose chart another repository holds).
    ...outOfScope
      .filter((name) => !said.has(name))
      .map((name) => `out of scope: ${name}: another repository, not checked`),
  ];
  const partial = notRendered.length > 0 || noted.some((note) => note.code === 'unsupported');
  return { lines: [...new Set(lines)], partial };
}
