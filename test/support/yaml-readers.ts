// A file read by both of loadYamlFile's readers: the fast block-YAML reader (block-yaml.ts), which it
// tries first, and the yaml library alone. Tracked maps become entry lists, so key order is compared too.
import { FAST_READER, loadYamlFile, type LoadedFile } from '../../src/core/manifests/read-yaml.js';

/** `run` with loadYamlFile reading through the yaml library only. */
export function withLibraryReader<T>(run: () => T): T {
  FAST_READER.enabled = false;
  try {
    return run();
  } finally {
    FAST_READER.enabled = true;
  }
}

function comparable(node: unknown): unknown {
  if (node instanceof Map) return [...node].map(([key, value]) => [key, comparable(value)]);
  if (Array.isArray(node)) return node.map(comparable);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, comparable(value)]));
}

/** The file as loadYamlFile reads it now and as the yaml library alone reads it, ready for toStrictEqual. */
export function readBothWays(file: string, text: string): { fast: unknown; library: unknown } {
  const library: LoadedFile = withLibraryReader(() => loadYamlFile(file, text));
  return { fast: comparable(loadYamlFile(file, text)), library: comparable(library) };
}
