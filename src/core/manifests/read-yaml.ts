// Reads a YAML/JSON file into tracked documents: each node carries the byte range, line and column
// where its value is written. Invalid YAML, duplicate keys and alias bombs (sized by
// yaml/expansion-size.ts before anything is built) become problems with a line; the other documents of
// the file still load. A render's budget (render-budget.ts) is charged per document.
import { Composer, Parser, isAlias, isMap, isScalar, isSeq, isPair } from 'yaml';
import type { Node as YamlNode, Document } from 'yaml';
import {
  fileContent,
  whyNotRead,
  lineStartsOf,
  locationAt,
  type FieldOrigin,
  type FieldSource,
  type SourceLocation,
  type SourceProblem,
} from '../model/index.js';
import type { TrackedNode, ScalarValue } from './tracked.js';
import { expansionSize, MAX_ALIAS_NODES } from '../yaml/expansion-size.js';
import { readBlockYaml, type BlockDocument } from './block-yaml.js';
import type { RenderBudget } from './render-budget.js';

/**
 * Largest manifest file read, in UTF-8 bytes. A Kubernetes object is at most ~1.5 MiB (etcd's
 * limit) and the largest CRD bundles in the wild are a few MiB; parsing with a source map costs
 * ~80 bytes of memory per byte of YAML and ~4 s per MiB, so a bigger file is refused, not read.
 */
export const MAX_MANIFEST_FILE_BYTES = 4 * 1024 * 1024;

export interface LoadedDocument {
  index: number;
  /** Undefined for an empty document. */
  root: TrackedNode | undefined;
  location: SourceLocation;
}

export interface LoadedFile {
  documents: LoadedDocument[];
  problems: SourceProblem[];
  /** Nodes of the loaded documents, aliases expanded: what a render's budget is charged per use. */
  nodes: number;
}

const RESOURCE: FieldOrigin = { type: 'resource' };

/** Whether loadYamlFile tries block-yaml.ts first; off only to compare the two readers. */
export const FAST_READER = { enabled: true };

/** `meter`: the job's budget, charged the file's bytes and each document as it is loaded (a cached load charges the same). */
/** `lastKeyWins`: a repeated mapping key keeps its last value (kustomize reads kustomization files so). */
export function loadYamlFile(
  file: string,
  text: string,
  origin: FieldOrigin = RESOURCE,
  meter?: RenderBudget,
  lastKeyWins = false,
): LoadedFile {
  const loaded: LoadedFile = { documents: [], problems: [], nodes: 0 };
  const bytes = Buffer.byteLength(text, 'utf8');
  meter?.charge(file, { bytes });
  if (bytes > MAX_MANIFEST_FILE_BYTES) {
    loaded.problems.push(oversized(file, bytes));
    return loaded;
  }
  const notRead = whyNotRead(text);
  if (notRead !== undefined) {
    loaded.problems.push({ file, line: 1, message: `file not read: ${notRead}` });
    return loaded;
  }
  if (typeof fileContent(text) !== 'string') {
    // kustomize: "MalformedYAMLError: yaml: incomplete UTF-8 octet sequence"; kubectl refuses it too.
    loaded.problems.push({ file, message: 'cannot parse YAML: the file is not UTF-8 text; save it as UTF-8' });
    return loaded;
  }
  const lineStarts = lineStartsOf(text);
  if (FAST_READER.enabled) {
    const fast = readBlockYaml(file, text, lineStarts, origin);
    if (fast) return loadedBlockDocuments(loaded, file, fast, meter);
  }
  const docs = parsedDocuments(text, lastKeyWins);
  for (let index = 0; ; index += 1) {
    let next: IteratorResult<ParsedChunk>;
    try {
      next = docs.next();
    } catch (error) {
      loaded.problems.push({ file, message: `cannot parse YAML: ${(error as Error).message}` });
      return loaded;
    }
    if (next.done) break;
    const { doc, offset, chunk } = next.value;
    const locate = (start: number, end: number): SourceLocation =>
      locationAt(lineStarts, file, index, start + offset, end + offset);
    if (doc.errors.length > 0) loaded.problems.push(...syntaxProblems(file, doc, locate));
    else loadDocument(loaded, { file, index, doc, chunk, locate, origin, bytes, meter });
  }
  return loaded;
}

/** The documents the fast reader read, charged to the budget as loadDocument charges them. */
function loadedBlockDocuments(
  loaded: LoadedFile,
  file: string,
  documents: readonly BlockDocument[],
  meter: RenderBudget | undefined,
): LoadedFile {
  documents.forEach(({ root, location, nodes }, index) => {
    meter?.charge(file, { nodes, documents: 1 });
    loaded.nodes += nodes;
    loaded.documents.push({ index, root, location });
  });
  return loaded;
}

function oversized(file: string, bytes: number): SourceProblem {
  const mib = (bytes / 1024 / 1024).toFixed(1);
  return {
    file,
    line: 1,
    message: `file is ${mib} MiB, over the ${MAX_MANIFEST_FILE_BYTES / 1024 / 1024} MiB limit for one manifest file; it was not read: split it into several files (a kustomization can list them)`,
  };
}

interface ParsedChunk {
  doc: Document.Parsed;
  offset: number;
  chunk: string;
}

/**
 * Each document parsed on its own (a line starting `---` ends a document wherever it is, even in a
 * block scalar) and converted before the next: a large file's syntax trees never all live at once,
 * so one 1 MB file costs per MB what 100 small files do.
 */
function* parsedDocuments(text: string, lastKeyWins: boolean): Generator<ParsedChunk> {
  let any = false;
  for (const { offset, chunk } of documentChunks(text)) {
    const composer = new Composer({ uniqueKeys: !lastKeyWins, prettyErrors: false });
    for (const doc of composer.compose(new Parser().parse(chunk), false, chunk.length)) {
      any = true;
      yield { doc: doc as Document.Parsed, offset, chunk };
    }
  }
  if (!any) {
    const composer = new Composer({ uniqueKeys: !lastKeyWins, prettyErrors: false });
    for (const doc of composer.compose(new Parser().parse(text), true, text.length))
      yield { doc: doc as Document.Parsed, offset: 0, chunk: text };
  }
}

type Locate = (start: number, end: number) => SourceLocation;

function syntaxProblems(file: string, doc: Document.Parsed, locate: Locate): SourceProblem[] {
  return doc.errors.map((error) => {
    const pos = locate(error.pos[0], error.pos[0]);
    return { file, line: pos.line, column: pos.column, message: `invalid YAML: ${firstLine(error.message)}` };
  });
}

/** One parsed document into `loaded`: empty, refused as an alias bomb, or converted and charged. */
function loadDocument(
  loaded: LoadedFile,
  at: {
    file: string;
    index: number;
    doc: Document.Parsed;
    chunk: string;
    locate: Locate;
    origin: FieldOrigin;
    bytes: number;
    meter: RenderBudget | undefined;
  },
): void {
  const { file, index, doc, locate } = at;
  const docStart = doc.contents?.range?.[0] ?? doc.range[0];
  const location = locate(docStart, doc.contents?.range?.[1] ?? docStart);
  if (!doc.contents || (isScalar(doc.contents) && doc.contents.value === null)) {
    loaded.documents.push({ index, root: undefined, location });
    return;
  }
  // Sized before anything is built: an alias bomb is refused without being expanded.
  const size = expansionSize(doc, at.bytes + MAX_ALIAS_NODES);
  if (size.expanded - size.written > MAX_ALIAS_NODES) {
    const message = `document ${index}: its aliases expand to more than ${MAX_ALIAS_NODES.toLocaleString('en-US')} nodes beyond what is written (an alias bomb?); it was not loaded: write the repeated parts out, or use a kustomize patch or component`;
    loaded.problems.push({ file, line: location.line, column: location.column, message });
    return;
  }
  at.meter?.charge(file, { nodes: size.expanded, documents: 1 });
  loaded.nodes += size.expanded;
  const root = new Converter(at.origin, locate, doc, at.chunk).convert(doc.contents as YamlNode);
  loaded.documents.push({ index, root, location });
}

/**
 * The file cut before each line that starts a document (`---` then a space or the line's end), each
 * piece with its offset. A file with directives (`%YAML`) is one piece: they belong to what follows.
 */
function documentChunks(text: string): { offset: number; chunk: string }[] {
  if (/^%/m.test(text)) return [{ offset: 0, chunk: text }];
  const starts = [0];
  const marker = /^---(?=[ \t\r\n]|$)/gm;
  for (let m = marker.exec(text); m; m = marker.exec(text)) if (m.index > 0) starts.push(m.index);
  return starts.map((start, i) => ({ offset: start, chunk: text.slice(start, starts[i + 1] ?? text.length) }));
}

class Converter {
  constructor(
    private readonly origin: FieldOrigin,
    private readonly locate: (start: number, end: number) => SourceLocation,
    private readonly doc: Document.Parsed,
    private readonly text: string,
  ) {}

  convert(node: YamlNode): TrackedNode {
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      if (!target) return { kind: 'scalar', value: null, source: this.sourceOf(node) };
      return this.convert(target as YamlNode);
    }
    const source = this.sourceOf(node);
    if (isMap(node)) {
      const entries = new Map<string, TrackedNode>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const value = pair.value
          ? this.convert(pair.value as YamlNode)
          : { kind: 'scalar' as const, value: null, source: this.sourceOf(pair.key as YamlNode) };
        if (key === '<<' && value.kind === 'map') {
          // YAML 1.1 merge key, as Kubernetes' YAML reader accepts it: earlier explicit keys win.
          for (const [k, v] of value.entries) if (!entries.has(k)) entries.set(k, v);
          continue;
        }
        entries.set(key, value);
      }
      return { kind: 'map', entries, source };
    }
    if (isSeq(node)) return { kind: 'list', items: node.items.map((item) => this.convert(item as YamlNode)), source };
    if (isScalar(node)) {
      // A plain 0755 is octal (493) to kustomize's YAML reader and to the API server's, as in YAML 1.1.
      if (node.type === 'PLAIN' && typeof node.value === 'number' && node.range) {
        const written = this.text.slice(node.range[0], node.range[1]).trim();
        if (/^[-+]?0[0-7]+$/.test(written)) return { kind: 'scalar', value: parseInt(written, 8), source };
      }
      // A block scalar ending the file without a final line break has no trailing newline (kustomize's
      // YAML reader, like the YAML spec, only keeps a line break that is written).
      if (
        (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') &&
        typeof node.value === 'string' &&
        node.range &&
        node.value.endsWith('\n') &&
        !this.text.endsWith('\n') &&
        this.text.slice(node.range[1]).trim() === '' &&
        !/^[|>][1-9]?\+/.test(this.text.slice(node.range[0]))
      ) {
        return { kind: 'scalar', value: node.value.slice(0, -1), source };
      }
      return { kind: 'scalar', value: scalarValue(node.value), source };
    }
    return { kind: 'scalar', value: null, source };
  }

  private sourceOf(node: YamlNode): FieldSource {
    const range = node.range;
    return { location: range ? this.locate(range[0], range[1]) : this.locate(0, 0), origin: this.origin };
  }
}

function scalarValue(value: unknown): ScalarValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return String(value);
}

function firstLine(message: string): string {
  return message.split('\n')[0];
}
