// A parse cache that the caller owns and hands to several renders of nearly the same files (a pull
// request's head, then its base): a file whose path and text are unchanged is parsed once. Parsing
// with a source map is most of a render's cost, and a pull request changes a few files of thousands.
//
// Transformers edit tracked trees in place (namespaces, prefixes, patches), so the cache keeps the
// untouched parse result and every render gets its own copy of the nodes. The copy shares the
// immutable parts (FieldSource and SourceLocation objects, strings), which also keeps the source
// maps of several renders from holding duplicate locations.
import type { LoadedDocument, LoadedFile } from './read-yaml.js';
import { loadYamlFile } from './read-yaml.js';
import { cloneTracked } from './tracked.js';
import type { RenderBudget } from './render-budget.js';

/** One parse of one file text. */
export interface CachedParse {
  text: string;
  /** What the parse charged the budget: a cached load charges the same again. */
  usage: { nodes: number; documents: number; bytes: number };
  loaded: LoadedFile;
}

/**
 * File path → the parses of the texts seen at that path (usually one; two when head and base differ).
 * Create one with `newParseCache()` (or `new Map()`), pass it to every render of one plan, then drop it.
 */
export type ParseCache = Map<string, CachedParse[]>;

export function newParseCache(): ParseCache {
  return new Map();
}

/** loadYamlFile through the cache: the same result as an uncached load, in nodes of its own. */
export function loadYamlFileCached(
  file: string,
  text: string,
  cache: ParseCache | undefined,
  meter?: RenderBudget,
  lastKeyWins = false,
): LoadedFile {
  if (!cache) return loadYamlFile(file, text, undefined, meter, lastKeyWins);
  let variants = cache.get(file);
  if (!variants) {
    variants = [];
    cache.set(file, variants);
  }
  // Strings compare by identity first, so the usual case (the same text object) costs nothing.
  let hit = variants.find((variant) => variant.text === text);
  if (!hit) {
    const loaded = loadYamlFile(file, text, undefined, meter, lastKeyWins);
    const documents = loaded.documents.filter((document) => document.root !== undefined).length;
    hit = { text, loaded, usage: { nodes: loaded.nodes, documents, bytes: Buffer.byteLength(text, 'utf8') } };
    variants.push(hit);
  } else {
    meter?.charge(file, hit.usage);
  }
  return copyOf(hit.loaded);
}

function copyOf(loaded: LoadedFile): LoadedFile {
  // Problems are copied too: a caller may annotate the ones it receives (they are few).
  return {
    documents: loaded.documents.map(copyDocument),
    problems: loaded.problems.map((problem) => ({ ...problem })),
    nodes: loaded.nodes,
  };
}

function copyDocument(document: LoadedDocument): LoadedDocument {
  return { index: document.index, root: document.root && cloneTracked(document.root), location: document.location };
}
