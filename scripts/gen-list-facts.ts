// Generates src/core/k8s/list-facts.generated.ts from Kubernetes' own OpenAPI v3 documents: for each
// built-in kind, every list the API annotates, with the annotations as the API writes them —
// server-side apply's `x-kubernetes-list-type` / `x-kubernetes-list-map-keys` and strategic merge
// patch's `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key`. The two sets are kept
// apart on purpose: src/core/k8s/list-keys.ts derives each merge's keys from its own facts.
// Lists not in the table carry no annotation: atomic for both. Status is never compared, so it is
// left out; ObjectMeta is the same everywhere and is written once, for an object's own metadata.
// Run: npx tsx scripts/gen-list-facts.ts [openapi-v3-dir] [out-file]
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  type?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
};

interface Facts {
  listType?: string;
  listMapKeys?: string[];
  patchStrategy?: string;
  patchMergeKey?: string;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const root = resolve(process.argv[2] ?? 'test/fixtures/upstream/openapi/kubectl-testdata/openapi/v3');
const out = resolve(process.argv[3] ?? 'src/core/k8s/list-facts.generated.ts');

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? jsonFiles(full) : name.endsWith('.json') ? [full] : [];
  });
}

/** Follows $ref and single-element allOf wrappers to the schema that has the properties. */
function resolveSchema(schema: Schema, schemas: Record<string, Schema>): { schema: Schema; ref?: string } {
  let current = schema;
  let ref: string | undefined;
  for (let hops = 0; hops < 10; hops++) {
    if (current.$ref) {
      ref = current.$ref.replace('#/components/schemas/', '');
      current = schemas[ref] ?? {};
    } else if (current.allOf?.length === 1) current = current.allOf[0]!;
    else break;
  }
  return { schema: current, ref };
}

/** The list's annotations, when it has any that make it more than atomic. */
function factsOf(list: Schema): Facts | undefined {
  const facts: Facts = {};
  const listType = list['x-kubernetes-list-type'];
  if (listType && listType !== 'atomic') facts.listType = listType;
  if (list['x-kubernetes-list-map-keys']?.length) facts.listMapKeys = list['x-kubernetes-list-map-keys'];
  if (list['x-kubernetes-patch-strategy']) facts.patchStrategy = list['x-kubernetes-patch-strategy'];
  if (list['x-kubernetes-patch-merge-key']) facts.patchMergeKey = list['x-kubernetes-patch-merge-key'];
  return facts.listType || facts.patchStrategy ? facts : undefined;
}

/** Walks a schema; records pointer pattern → facts for every annotated list. */
function walk(
  schema: Schema, pointer: string, schemas: Record<string, Schema>, stack: string[], table: Record<string, Facts>,
): void {
  const { schema: resolved, ref } = resolveSchema(schema, schemas);
  // Recursive types (JSONSchemaProps) would never end; a ref seen on the way down stops the walk.
  if (ref && stack.includes(ref)) return;
  // An embedded ObjectMeta (a pod template's) says what OBJECT_META says; only the root one is listed.
  if (ref === OBJECT_META && pointer !== '/metadata') return;
  const nextStack = ref ? [...stack, ref] : stack;
  if (resolved.type === 'array' && resolved.items) {
    const facts = factsOf(resolved);
    if (facts) table[pointer] = facts;
    walk(resolved.items, `${pointer}/*`, schemas, nextStack, table);
    return;
  }
  for (const [name, child] of Object.entries(resolved.properties ?? {})) {
    // metadata is written once (OBJECT_META below); status is never compared.
    if (pointer === '' && (name === 'metadata' || name === 'status')) continue;
    if (name === 'status') continue;
    walk(child, `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, schemas, nextStack, table);
  }
  if (typeof resolved.additionalProperties === 'object') {
    walk(resolved.additionalProperties, `${pointer}/*`, schemas, nextStack, table);
  }
}

const kinds = new Map<string, Record<string, Facts>>();
const objectMeta: Record<string, Facts> = {};
for (const file of jsonFiles(root)) {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { components?: { schemas?: Record<string, Schema> } };
  const schemas = doc.components?.schemas ?? {};
  if (schemas[OBJECT_META]) walk(schemas[OBJECT_META], '/metadata', schemas, [OBJECT_META], objectMeta);
  for (const [name, schema] of Object.entries(schemas)) {
    const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
    for (const gvk of gvks) {
      if (gvk.kind.endsWith('List') || name.startsWith('io.k8s.apimachinery')) continue;
      const table: Record<string, Facts> = {};
      walk(schema, '', schemas, [name], table);
      if (Object.keys(table).length > 0) kinds.set(`${gvk.group}/${gvk.kind}`, table);
    }
  }
}

const same = (a: Facts | undefined, b: Facts | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);
const entry = (pointer: string, facts: Facts): string => `  ${JSON.stringify(pointer)}: ${JSON.stringify(facts)},`;

// Many kinds embed the same pod template: factor identical tails out so the table stays compact.
const podTable = kinds.get('/Pod') ?? {};
const podEntries = Object.entries(podTable)
  .filter(([p]) => p.startsWith('/spec/'))
  .map(([p, f]) => [p.slice('/spec'.length), f] as const);
// containers, initContainers and ephemeralContainers hold the same lists: written once, as CONTAINER.
const CONTAINER_LISTS = ['/containers', '/ephemeralContainers', '/initContainers'];
const containerTails = podEntries
  .filter(([p]) => p.startsWith('/containers/*/'))
  .map(([p, f]) => [p.slice('/containers/*'.length), f] as const);
const podFacts = new Map<string, Facts>(podEntries);
// Every container list must hold exactly the same lists, or the table would say something untrue.
for (const list of CONTAINER_LISTS) {
  for (const [tail, facts] of containerTails) {
    const pointer = `${list}/*${tail}`;
    if (!same(podFacts.get(pointer), facts)) throw new Error(`${pointer} differs from /containers/*${tail}`);
  }
}
const inContainer = (pointer: string): boolean => CONTAINER_LISTS.some((list) => pointer.startsWith(`${list}/*/`));
const lines: string[] = [];
lines.push('// GENERATED by scripts/gen-list-facts.ts from the Kubernetes OpenAPI v3 documents. Do not edit.');
lines.push('// Annotated lists per kind: JSON pointer pattern (`*` = any list item or map key) → the API\'s facts.');
lines.push('// `podSpecAt` prefixes stand for the pod spec tails of POD_SPEC mounted there.');
lines.push("import type { KindFacts, ListFacts } from './list-facts.js';");
lines.push('');
lines.push('/** Annotated lists inside a container (of containers, initContainers, ephemeralContainers). */');
lines.push('export const CONTAINER: Readonly<Record<string, ListFacts>> = {');
for (const [p, f] of containerTails) lines.push(entry(p, f));
lines.push('};');
lines.push('');
lines.push(`export const CONTAINER_LISTS = ${JSON.stringify(CONTAINER_LISTS)};`);
lines.push('');
lines.push('/** Annotated lists inside a PodSpec, relative to the PodSpec (those inside containers: CONTAINER). */');
lines.push('export const POD_SPEC: Readonly<Record<string, ListFacts>> = {');
for (const [p, f] of podEntries) if (!inContainer(p)) lines.push(entry(p, f));
lines.push('};');
lines.push('');
lines.push('/** Annotated lists of ObjectMeta, the same in every kind. */');
lines.push('export const OBJECT_META: Readonly<Record<string, ListFacts>> = {');
for (const [p, f] of Object.entries(objectMeta)) lines.push(entry(p, f));
lines.push('};');
lines.push('');
lines.push('/** `group/Kind` → { podSpecAt: prefixes where a PodSpec sits, lists: other annotated lists }. */');
lines.push('export const LIST_FACTS: Readonly<Record<string, KindFacts>> = {');
for (const [kind, table] of [...kinds.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const prefixes = new Set<string>();
  for (const [p] of podEntries) {
    for (const pointer of Object.keys(table)) {
      if (pointer.endsWith(p)) prefixes.add(pointer.slice(0, pointer.length - p.length));
    }
  }
  // A PodSpec sits wherever `containers` is annotated as the Pod's is; its lists fold into POD_SPEC
  // (a list that a schema version lacks never appears in an object, so the newest PodSpec serves all).
  const podSpecAt = [...prefixes]
    .filter((prefix) => same(table[prefix + '/containers'], podTable['/spec/containers']))
    .sort();
  const folded = (pointer: string): boolean =>
    podSpecAt.some((prefix) =>
      pointer.startsWith(prefix + '/') && same(podTable['/spec' + pointer.slice(prefix.length)], table[pointer]));
  const rest = Object.entries(table).filter(([pointer]) => !folded(pointer));
  lines.push(`  ${JSON.stringify(kind)}: {`);
  lines.push(`    podSpecAt: ${JSON.stringify(podSpecAt)},`);
  if (rest.length === 0) lines.push('    lists: {},');
  else {
    lines.push('    lists: {');
    for (const [p, f] of rest) lines.push(`    ${entry(p, f)}`);
    lines.push('    },');
  }
  lines.push('  },');
}
lines.push('};');
writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${out}: ${kinds.size} kinds, ${podEntries.length} pod-spec lists`);
