// Codify: writes intentional live changes back into the repository, byte-exact, with a self-check.
import { codifyWith } from './codify.js';
import { defaultEngine } from './engine.js';
import type { CodifyInput, CodifyResult } from './types.js';

export type {
  CodifyInput,
  CodifyResult,
  CodifiedChange,
  ReportedChange,
  CodifyKind,
  SelfCheck,
  CodifyEngine,
} from './types.js';
export { codifyWith } from './codify.js';
export { setScalarAt, setValueAt, removeValueAt, type EditResult } from './yaml-edit.js';
export { appendToKustomizationList } from './kustomization-lists.js';
export { cleanLiveObject } from './clean-live.js';
export { newResourcePath } from './new-resource.js';
export type { DirectoryReading, PathReader } from './new-file-place.js';
export { neverCodified } from './select.js';
export { addedByRender } from './self-check.js';

/** Writes the codifiable drift of `input.result` into the files; see CodifyResult. */
export function codifyDrift(input: CodifyInput): CodifyResult {
  return codifyWith(defaultEngine, input);
}
