// The API's own merge facts of a field, looked up by kind, version and pointer pattern in the table
// generated from the Kubernetes OpenAPI documents (list-keys.generated.ts): a kind's own rows, the
// shared schemas mounted in it (a pod template, a container), and ObjectMeta wherever `metadata` sits.
import { KINDS, OBJECT_META, SCHEMAS, type FieldMerge, type SchemaMerge } from './list-keys.generated.js';

export type { FieldMerge };

const METADATA = '/metadata';

/** The facts at `pointer` of a schema: its own row, else those of the schema mounted above it. */
function factsIn(table: SchemaMerge, pointer: string): FieldMerge | undefined {
  const own = table.fields?.[pointer];
  if (own) return own;
  let mount: [at: string, name: string] | undefined;
  for (const [at, name] of Object.entries(table.mounts ?? {})) {
    if (pointer.startsWith(at + '/') && (!mount || at.length > mount[0].length)) mount = [at, name];
  }
  if (mount) {
    const shared = SCHEMAS[mount[1]];
    return shared ? factsIn(shared, pointer.slice(mount[0].length)) : undefined;
  }
  if (pointer.startsWith(METADATA + '/')) return OBJECT_META.fields?.[pointer.slice(METADATA.length)];
  return undefined;
}

const memo = new Map<string, FieldMerge | null>();

/**
 * The facts of `group/Kind`'s field at `pointer` (list items and map values written as `*`), or
 * undefined when the API says nothing (a list then is atomic, and replaced whole by a patch). A fact
 * the table limits to other versions than `version` does not apply; without a version, every fact does.
 */
export function mergeFactsAt(group: string, kind: string, pointer: string, version?: string): FieldMerge | undefined {
  const id = `${group}/${kind}\u0000${version ?? ''}\u0000${pointer}`;
  let found = memo.get(id);
  if (found === undefined) {
    const table = KINDS[`${group}/${kind}`];
    const facts = table ? factsIn(table, pointer) : undefined;
    found = facts && (!version || !facts.versions || facts.versions.includes(version)) ? facts : null;
    memo.set(id, found);
  }
  return found ?? undefined;
}

/** The facts at `pointer` inside a shared built-in schema (`core.v1.PodTemplateSpec`). */
export function mergeFactsInSchema(schema: string, pointer: string): FieldMerge | undefined {
  const table = SCHEMAS[schema];
  return table ? factsIn(table, pointer) : undefined;
}

/** Whether `schema` is one of the shared built-in schemas (`core.v1.PodTemplateSpec`). */
export function hasSharedSchema(schema: string): boolean {
  return Object.hasOwn(SCHEMAS, schema);
}

/** The API groups the API server serves itself ('' is the core group). */
export const BUILT_IN_GROUPS: ReadonlySet<string> = new Set(
  Object.keys(KINDS).map((kind) => kind.slice(0, kind.lastIndexOf('/'))),
);
