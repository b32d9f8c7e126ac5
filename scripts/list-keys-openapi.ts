// Reads Kubernetes OpenAPI v3 documents into merge facts: for every built-in kind, per JSON pointer
// pattern, how server-side apply and strategic merge patch merge the field. Schemas used in several
// places come out once, as shared tables mounted where they are used. gen-list-keys.ts writes it out.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const EXTENSIONS = [
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
] as const;
type Extensions = Partial<Record<(typeof EXTENSIONS)[number], unknown>>;

type Schema = Extensions & {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  type?: string;
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
};

/** How one field merges (the generated file declares the same shape as FieldMerge). */
export type Facts = { ssa?: string[] | 'set' | 'atomic'; smp?: string; smpKey?: string; versions?: string[] };
/** Facts by pointer, and the shared tables mounted at pointers (by their names). */
export type Table = { fields: Map<string, Facts>; mounts: Map<string, string> };
export type MergeFacts = {
  documents: number;
  objectMeta: Table;
  shared: Map<string, Table>;
  kinds: Map<string, Table & { versions: string[] }>;
};

/** One named schema, scanned without following references to other named schemas. */
type Scan = { fields: Map<string, Facts>; edges: Array<{ at: string; def: string }>; pointers: Set<string> };
/** A table before naming: mounts hold schema names; pointers are every field it reaches. */
type RawTable = { fields: Map<string, Facts>; mounts: Map<string, string>; pointers: Set<string> };

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const REF_PREFIX = '#/components/schemas/';

/**
 * Server-side apply's reading of a list, as kube-openapi's schemaconv `getListElementRelationship`
 * (pkg/schemaconv/smd.go) does: `x-kubernetes-list-type` decides; without it, a patch strategy
 * `merge` makes the list associative on the patch merge key (a set when there is none); otherwise
 * the list is atomic. A map or struct is atomic only with `x-kubernetes-map-type: atomic`.
 */
function ssaOf(ext: Extensions, isList: boolean, where: string): Facts['ssa'] {
  if (!isList) return ext['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : undefined;
  const listType = ext['x-kubernetes-list-type'];
  if (listType === 'map') {
    const keys = ext['x-kubernetes-list-map-keys'];
    if (!Array.isArray(keys) || keys.length === 0) throw new Error(`${where}: list-type map without list-map-keys`);
    return keys.map(String);
  }
  if (listType === 'set') return 'set';
  if (listType === 'atomic') return undefined;
  if (listType !== undefined) throw new Error(`${where}: unknown x-kubernetes-list-type ${String(listType)}`);
  const strategy = ext['x-kubernetes-patch-strategy'];
  if (strategy === 'merge' || strategy === 'merge,retainKeys') {
    const key = ext['x-kubernetes-patch-merge-key'];
    return typeof key === 'string' ? [key] : 'set';
  }
  return undefined;
}

/** The facts worth a row: anything but the defaults (a list atomic and replaced whole; a struct granular). */
function factsOf(ext: Extensions, isList: boolean, where: string): Facts | undefined {
  const facts: Facts = {};
  const ssa = ssaOf(ext, isList, where);
  if (ssa) facts.ssa = ssa;
  const strategy = ext['x-kubernetes-patch-strategy'];
  if (typeof strategy === 'string') facts.smp = strategy;
  const key = ext['x-kubernetes-patch-merge-key'];
  if (typeof key === 'string') facts.smpKey = key;
  return Object.keys(facts).length > 0 ? facts : undefined;
}

function extensionsOf(schema: Schema): Extensions {
  const ext: Extensions = {};
  for (const name of EXTENSIONS) if (schema[name] !== undefined) ext[name] = schema[name];
  return ext;
}

const escapeSegment = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** Scans a named schema: its fields' facts, and where it refers to other named schemas. */
function scanSchema(name: string, schemas: Record<string, Schema>): Scan {
  const scan: Scan = { fields: new Map(), edges: [], pointers: new Set() };
  const record = (pointer: string, ext: Extensions, isList: boolean): void => {
    const facts = factsOf(ext, isList, name + pointer);
    if (facts) scan.fields.set(pointer, facts);
    scan.pointers.add(pointer);
  };
  const visit = (node: Schema, pointer: string): void => {
    // A property is often `allOf: [{$ref}]` with its own extensions beside it: the property's win.
    let ext = extensionsOf(node);
    let current = node;
    while (!current.$ref && current.allOf?.length === 1) {
      current = current.allOf[0]!;
      ext = { ...extensionsOf(current), ...ext };
    }
    if (current.$ref) {
      const target = current.$ref.slice(REF_PREFIX.length);
      const targetSchema = schemas[target];
      if (!targetSchema) throw new Error(`${name}${pointer}: no schema ${target}`);
      // Extensions on the referred schema itself (LabelSelector's map-type atomic) hold at every use.
      record(pointer, { ...extensionsOf(targetSchema), ...ext }, targetSchema.type === 'array');
      if (target !== OBJECT_META) scan.edges.push({ at: pointer, def: target });
      return;
    }
    if (pointer !== '') record(pointer, ext, current.type === 'array');
    if (current.type === 'array' && current.items) visit(current.items, `${pointer}/*`);
    const properties = current.properties ?? {};
    for (const [field, child] of Object.entries(properties)) {
      // An object's status is never desired state: not a kind's, nor an embedded one's (volumeClaimTemplates).
      if (field === 'status' && properties.metadata !== undefined) continue;
      visit(child, `${pointer}/${escapeSegment(field)}`);
    }
    if (typeof current.additionalProperties === 'object') visit(current.additionalProperties, `${pointer}/*`);
  };
  // The schema's own extensions belong to the places that use it, not to its root.
  visit({ ...schemas[name]!, ...Object.fromEntries(EXTENSIONS.map((e) => [e, undefined])) }, '');
  return scan;
}

/** Kubernetes' version priority: GA, then beta, then alpha, newer first (v1 > v1beta2 > v1beta1 > v1alpha1). */
export function byVersion(a: string, b: string): number {
  const rank = (version: string): number[] => {
    const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
    if (!match) return [3, 0, 0];
    return [match[2] === undefined ? 0 : match[2] === 'beta' ? 1 : 2, -Number(match[1]), -Number(match[3] ?? 0)];
  };
  const [x, y] = [rank(a), rank(b)];
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]! || (a < b ? -1 : a > b ? 1 : 0);
}

type Corpus = { documents: number; scans: Map<string, Scan>; roots: Map<string, Map<string, string>> };

/** Scans every schema of every document; roots maps `group/Kind` → version → its schema's name. */
function readCorpus(dir: string): Corpus {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const scans = new Map<string, Scan>();
  const scanText = new Map<string, string>();
  const roots = new Map<string, Map<string, string>>();
  const asText = (scan: Scan): string =>
    JSON.stringify(scan, (_k, v) => (v instanceof Map || v instanceof Set ? [...v] : v));
  for (const file of files) {
    type Document = { components?: { schemas?: Record<string, Schema> } };
    const schemas = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Document).components?.schemas ?? {};
    for (const [name, schema] of Object.entries(schemas)) {
      // Every document repeats the schemas it shares with others (meta/v1, …): they must agree.
      const scan = scanSchema(name, schemas);
      const text = asText(scan);
      if (scanText.has(name) && scanText.get(name) !== text) {
        throw new Error(`${file}: ${name} differs from another document's`);
      }
      scans.set(name, scan);
      scanText.set(name, text);
      for (const gvk of schema['x-kubernetes-group-version-kind'] ?? []) {
        if (name.startsWith('io.k8s.apimachinery.') || gvk.kind.endsWith('List')) continue;
        const versions = roots.get(`${gvk.group}/${gvk.kind}`) ?? new Map<string, string>();
        roots.set(`${gvk.group}/${gvk.kind}`, versions.set(gvk.version, name));
      }
    }
  }
  return { documents: files.length, scans, roots };
}

type Sharing = { hasFacts: (def: string) => boolean; shared: (def: string) => boolean; reachable: string[] };

/**
 * Which schemas become shared tables: those used in two or more places that have something to say.
 * One used once is written inline where it is used.
 */
function planSharing(corpus: Corpus): Sharing {
  const incoming = new Map<string, number>();
  const reachable = new Set<string>();
  const queue = [OBJECT_META, ...[...corpus.roots.values()].flatMap((versions) => [...versions.values()])];
  while (queue.length > 0) {
    const def = queue.pop()!;
    if (reachable.has(def)) continue;
    reachable.add(def);
    for (const edge of corpus.scans.get(def)!.edges) {
      incoming.set(edge.def, (incoming.get(edge.def) ?? 0) + 1);
      queue.push(edge.def);
    }
  }
  const known = new Map<string, boolean>();
  const hasFacts = (def: string, stack: string[] = []): boolean => {
    if (known.has(def)) return known.get(def)!;
    if (stack.includes(def)) return false;
    const scan = corpus.scans.get(def)!;
    const result = scan.fields.size > 0 || scan.edges.some((edge) => hasFacts(edge.def, [...stack, def]));
    if (stack.length === 0 || result) known.set(def, result);
    return result;
  };
  const shared = (def: string): boolean => (incoming.get(def) ?? 0) >= 2 && hasFacts(def);
  return { hasFacts: (def) => hasFacts(def), shared, reachable: [...reachable] };
}

/** A schema's table: its facts and those of schemas used once, inline; shared ones mounted. */
function rawTable(def: string, corpus: Corpus, plan: Sharing): RawTable {
  const table: RawTable = { fields: new Map(), mounts: new Map(), pointers: new Set() };
  const add = (current: string, prefix: string, stack: string[]): void => {
    const scan = corpus.scans.get(current)!;
    for (const [pointer, facts] of scan.fields) table.fields.set(prefix + pointer, facts);
    for (const pointer of scan.pointers) table.pointers.add(prefix + pointer);
    for (const edge of scan.edges) {
      if (!plan.hasFacts(edge.def)) continue;
      if (plan.shared(edge.def)) table.mounts.set(prefix + edge.at, edge.def);
      else if (stack.includes(edge.def)) throw new Error(`${edge.def} refers to itself but is used only once`);
      else add(edge.def, prefix + edge.at, [...stack, edge.def]);
    }
  };
  add(def, '', [def]);
  return table;
}

/** `io.k8s.api.core.v1.PodSpec` → `core.v1.PodSpec`. */
const shortName = (def: string): string => def.split('.').slice(-3).join('.');

/**
 * Names the shared tables. Identical ones (resource.k8s.io v1's and v1beta2's, say) collapse into
 * one, named after the most stable version's schema.
 */
function nameShared(tables: Map<string, RawTable>): Map<string, string> {
  const versionOf = (def: string): string => def.split('.').at(-2)!;
  const defs = [...tables.keys()].sort((a, b) => byVersion(versionOf(a), versionOf(b)) || (a < b ? -1 : 1));
  const nameOf = new Map(defs.map((def) => [def, shortName(def)]));
  if (new Set(nameOf.values()).size !== nameOf.size) throw new Error('two shared schemas have the same short name');
  const content = (table: RawTable): string =>
    JSON.stringify([[...table.fields].sort(), [...table.mounts].map(([at, def]) => [at, nameOf.get(def)]).sort()]);
  for (let changed = true; changed;) {
    changed = false;
    const first = new Map<string, string>();
    for (const def of defs) {
      const key = content(tables.get(def)!);
      const same = first.get(key);
      if (same === undefined) first.set(key, def);
      else if (nameOf.get(def) !== nameOf.get(same)) {
        nameOf.set(def, nameOf.get(same)!);
        changed = true;
      }
    }
  }
  return nameOf;
}

const named = (table: RawTable, nameOf: Map<string, string>): Table => ({
  fields: table.fields,
  mounts: new Map([...table.mounts].map(([at, def]) => [at, nameOf.get(def)!])),
});

/**
 * One table for all versions of a kind. A field present in several versions says the same in all of
 * them but in rare cases (autoscaling/v1's scaleTargetRef is atomic, v2's is not): those rows name
 * the versions they hold in.
 */
function mergeVersions(kind: string, tables: Array<{ version: string; table: RawTable; named: Table }>): Table {
  const merged: Table = { fields: new Map(), mounts: new Map() };
  const pointers = new Set(tables.flatMap(({ table }) => [...table.fields.keys()]));
  for (const pointer of [...pointers].sort()) {
    const having = tables.filter(({ table }) => table.pointers.has(pointer));
    const distinct = new Set(having.map(({ table }) => JSON.stringify(table.fields.get(pointer) ?? null)));
    const facts = having.map(({ table }) => table.fields.get(pointer)).find((f) => f !== undefined)!;
    if (distinct.size === 1) merged.fields.set(pointer, facts);
    else if (distinct.size === 2 && distinct.has('null')) {
      const versions = having.filter(({ table }) => table.fields.has(pointer)).map(({ version }) => version);
      merged.fields.set(pointer, { ...facts, versions });
    } else throw new Error(`${kind}${pointer}: its versions disagree in more than one way`);
  }
  for (const { version, named: table } of tables) {
    for (const [pointer, name] of table.mounts) {
      const other = tables.find((t) => t.table.pointers.has(pointer) && t.named.mounts.get(pointer) !== name);
      if (other) throw new Error(`${kind}${pointer}: ${version} mounts ${name}, ${other.version} does not`);
      merged.mounts.set(pointer, name);
    }
  }
  return merged;
}

/** The merge facts of every built-in kind in the OpenAPI v3 documents under `dir`. */
export function readMergeFacts(dir: string): MergeFacts {
  const corpus = readCorpus(dir);
  const plan = planSharing(corpus);
  const sharedRaw = new Map(plan.reachable.filter(plan.shared).map((def) => [def, rawTable(def, corpus, plan)]));
  const nameOf = nameShared(sharedRaw);
  const shared = new Map<string, Table>();
  for (const [def, table] of sharedRaw) {
    if (!shared.has(nameOf.get(def)!)) shared.set(nameOf.get(def)!, named(table, nameOf));
  }
  const kinds = new Map<string, Table & { versions: string[] }>();
  for (const [kind, versions] of [...corpus.roots].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const ordered = [...versions.keys()].sort(byVersion);
    const tables = ordered.map((version) => {
      const table = rawTable(versions.get(version)!, corpus, plan);
      return { version, table, named: named(table, nameOf) };
    });
    kinds.set(kind, { ...mergeVersions(kind, tables), versions: ordered });
  }
  const objectMeta = named(rawTable(OBJECT_META, corpus, plan), nameOf);
  return { documents: corpus.documents, objectMeta, shared, kinds };
}
