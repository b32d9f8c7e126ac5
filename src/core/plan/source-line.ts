// Where in head a field is declared: the nearest source-map entry at or above the field, so a
// warning about `/spec/template/spec/containers/0/image` points at that line, and a warning about
// a field head does not declare points at its parent.
import type { DesiredObject } from '../model/index.js';

export interface SourcePlace {
  file: string;
  line?: number;
}

export function sourceOf(desired: DesiredObject | undefined, pointer?: string): SourcePlace | undefined {
  if (!desired) return undefined;
  let current = pointer ?? '';
  for (;;) {
    const field = desired.source.fields?.[current];
    if (field?.location) return { file: field.location.file, line: field.location.line };
    if (current === '') break;
    current = current.slice(0, current.lastIndexOf('/'));
  }
  return { file: desired.source.file, line: desired.source.location?.line };
}
