// Generates src/core/k8s/schema.generated.ts from the Kubernetes OpenAPI v3 documents of every API group
// (test/fixtures/upstream/kubernetes-openapi-v3): for each built-in kind, the fields each of its schemas
// has, with their types and which are required — compact enough to check, before codify writes a new
// file, that every field of the manifest is one the API server knows, of the right type. Kinds served
// in several versions map each `group/version/Kind` to its schema. A kind is cluster-scoped when no
// path of its API goes through `/namespaces/{namespace}/`: those kinds are listed too.
//
//   npx tsx scripts/gen-openapi-schema.ts [--openapi DIR] [--out FILE]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

type Schema = Record<string, unknown>;
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const dir = resolve(option('--openapi', 'test/fixtures/upstream/kubernetes-openapi-v3'));
const out = resolve(option('--out', 'src/core/k8s/schema.generated.ts'));

const schemas = new Map<string, Schema>();
/** `group/Kind` of every kind with an operation on a namespaced path, and of every kind with any operation. */
const namespacedPaths = new Set<string>();
const operated = new Set<string>();
for (const file of readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()) {
  type Document = { components?: { schemas?: Record<string, Schema> }; paths?: Record<string, Record<string, Schema>> };
  const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Document;
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) schemas.set(name, schema);
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const gvk = (operation as Schema)?.['x-kubernetes-group-version-kind'] as
        { group: string; kind: string } | undefined;
      if (!gvk) continue;
      const id = `${gvk.group}/${gvk.kind}`;
      operated.add(id);
      if (path.includes('/namespaces/{namespace}/')) namespacedPaths.add(id);
    }
  }
}

const PREFIX =
  /^io\.k8s\.(api\.|apimachinery\.pkg\.apis\.|kube-aggregator\.pkg\.apis\.|apiextensions-apiserver\.pkg\.apis\.)?/;
const short = (name: string): string => name.replace(PREFIX, '');

/** A type in the table's shorthand: s i n b (scalars), x (anything), o (any object), @Def, [T (list), {T (map). */
function typeOf(schema: Schema | undefined, used: Set<string>): string {
  if (!schema) return 'x';
  const allOf = (schema.allOf as Schema[] | undefined)?.[0]?.$ref as string | undefined;
  const ref = (schema.$ref as string | undefined) ?? allOf;
  if (ref) {
    const name = ref.replace('#/components/schemas/', '');
    const target = schemas.get(name);
    const either = target?.oneOf || target?.anyOf || target?.['x-kubernetes-int-or-string'];
    if (!target || either || target.format === 'int-or-string') return 'x';
    if (!target.properties && !target.type) return 'x';
    if (!target.properties) return typeOf(target, used);
    used.add(name);
    return '@' + short(name);
  }
  const open = schema['x-kubernetes-int-or-string'] || schema['x-kubernetes-preserve-unknown-fields'];
  if (open || schema.oneOf || schema.anyOf) return 'x';
  switch (schema.type) {
    case 'string':
      return 's';
    case 'integer':
      return 'i';
    case 'number':
      return 'n';
    case 'boolean':
      return 'b';
    case 'array':
      return '[' + typeOf(schema.items as Schema | undefined, used);
    case 'object':
      if (schema.properties) return 'x';
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return '{' + typeOf(schema.additionalProperties as Schema, used);
      }
      return 'o';
    default:
      return 'x';
  }
}

const kinds: Record<string, string> = {};
const defs: Record<string, { p: Record<string, string>; r?: string[] }> = {};
const pending: string[] = [];
for (const [name, schema] of schemas) {
  type Gvk = { group: string; version: string; kind: string };
  const gvks = schema['x-kubernetes-group-version-kind'] as Gvk[] | undefined;
  const props = schema.properties as Record<string, Schema> | undefined;
  if (!gvks || gvks.length !== 1 || !props?.metadata || name.endsWith('List')) continue;
  const [gvk] = gvks;
  kinds[`${gvk!.group}/${gvk!.version}/${gvk!.kind}`] = short(name);
  pending.push(name);
}
// Only kinds of objects (not the options of `connect` operations such as NodeProxyOptions).
const objectKinds = new Set(Object.keys(kinds).map((key) => key.replace(/\/[^/]+\/([^/]+)$/, '/$1')));
const clusterScoped = [...operated].filter((id) => objectKinds.has(id) && !namespacedPaths.has(id)).sort();
const done = new Set<string>();
while (pending.length) {
  const name = pending.pop()!;
  if (done.has(name)) continue;
  done.add(name);
  const schema = schemas.get(name)!;
  const used = new Set<string>();
  const p: Record<string, string> = {};
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [field, sub] of Object.entries(properties)) p[field] = typeOf(sub, used);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  defs[short(name)] = { p, ...(required.length ? { r: required } : {}) };
  for (const next of used) if (!done.has(next)) pending.push(next);
}

/** `"key": value` entries wrapped into lines of at most 120 characters, each line indented. */
function wrap(entries: string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const entry of entries) {
    if (line && indent.length + line.length + entry.length + 2 > 120) {
      lines.push(indent + line.trimEnd());
      line = '';
    }
    line += entry + ', ';
  }
  if (line) lines.push(indent + line.trimEnd());
  return lines.join('\n');
}
const q = (value: string): string => JSON.stringify(value);
const kindLines = wrap(
  Object.keys(kinds)
    .sort()
    .map((key) => `${q(key)}: ${q(kinds[key]!)}`),
  '  ',
);
const defLines = Object.keys(defs)
  .sort()
  .map((name) => {
    const { p, r } = defs[name]!;
    const fields = wrap(
      Object.keys(p)
        .sort()
        .map((field) => `${q(field)}: ${q(p[field]!)}`),
      '      ',
    );
    const required = r ? `\n    r: [${r.map(q).join(', ')}],` : '';
    return `  ${q(name)}: {\n    p: {\n${fields}\n    },${required}\n  },`;
  })
  .join('\n');
const text = `// GENERATED by scripts/gen-openapi-schema.ts from the Kubernetes OpenAPI v3 documents in
// test/fixtures/upstream/kubernetes-openapi-v3 (see its README). Do not edit.
// Types: s string, i integer, n number, b boolean, x anything (int-or-string, quantity, raw JSON),
// o an object of any fields, @Def a schema of DEFS, [T a list of T, {T a map of T.

/** Each built-in kind's schema, by \`group/version/Kind\` ('' is the core group). */
export const KINDS: Readonly<Record<string, string>> = {
${kindLines}
};

export interface SchemaFields {
  readonly p: Readonly<Record<string, string>>;
  readonly r?: readonly string[];
}

/**
 * The built-in kinds that are cluster-scoped, as \`group/Kind\`: no path of their API goes through
 * \`/namespaces/{namespace}/\`.
 */
export const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
${wrap(clusterScoped.map(q), '  ')}
]);

/** Each schema's fields (\`p\`) with their types, and its required fields (\`r\`). */
export const DEFS: Readonly<Record<string, SchemaFields>> = {
${defLines}
};
`;
writeFileSync(out, text);
const counts = `${Object.keys(kinds).length} kinds, ${Object.keys(defs).length} schemas`;
console.log(`${counts} → ${out} (${text.length} bytes)`);
