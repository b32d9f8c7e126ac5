// Small helpers for renderer tests: inline file trees and lookups into render results.
import type { DesiredObject, RenderResult } from '../../../src/core/model/index.js';

/** Strips the common indentation of a template literal so inline YAML reads naturally in tests. */
export function yaml(text: string): string {
  const lines = text.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

export function tree(files: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(files).map(([path, text]) => [path, yaml(text)]));
}

export function find(result: RenderResult, kind: string, name: string): DesiredObject {
  const found = result.objects.find((o) => o.key.kind === kind && o.key.name === name);
  if (!found)
    throw new Error(
      `${kind}/${name} not rendered; got ${result.objects.map((o) => `${o.key.kind}/${o.key.name}`).join(', ')}; errors: ${JSON.stringify(result.errors)}`,
    );
  return found;
}

/** The text a field's source location points at. */
export function writtenAt(
  files: ReadonlyMap<string, string>,
  object: DesiredObject,
  pointer: string,
): string | undefined {
  const location = object.source.fields[pointer]?.location;
  if (!location) return undefined;
  return files.get(location.file)?.slice(location.range[0], location.range[1]);
}
