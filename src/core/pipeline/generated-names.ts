// A manifest with `generateName` (a Job run by `kubectl create -f`, an Argo CD hook) is not compared: each
// apply makes a new object. Those objects are its, not hand-made extras: the API server keeps the prefix in
// `metadata.generateName` and names the object the prefix and five characters of its random alphabet
// (apiserver names.SimpleNameGenerator, utilrand.String: "bcdfghjklmnpqrstvwxz2456789"). A live object with
// both, of the manifest's kind (and namespace, when it names one), is matched back to it.
import { summarize } from '../classify/index.js';
import {
  displayKey,
  keyId,
  keyOf,
  type DiffResult,
  type KubeObject,
  type Plan,
  type PlanHook,
  type ResourceKey,
  type SkippedDocument,
  type SyncHook,
} from '../model/index.js';
import { syncHookOf } from '../sources/index.js';

const RANDOM_SUFFIX = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;

function madeFrom(key: ResourceKey, live: KubeObject | undefined, document: SkippedDocument): boolean {
  const made = document.generated;
  if (!made || live?.metadata?.generateName !== made.prefix) return false;
  if (key.kind !== made.kind || key.group !== made.group) return false;
  if (made.namespace !== undefined && key.namespace !== made.namespace) return false;
  return key.name.startsWith(made.prefix) && RANDOM_SUFFIX.test(key.name.slice(made.prefix.length));
}

/**
 * The diff without the live objects made from generateName manifests (whether they were extra or a
 * person's run-once objects), and the manifests with what they made.
 */
export function matchGeneratedNames(
  diff: DiffResult,
  documents: readonly SkippedDocument[],
  live: readonly KubeObject[],
): { diff: DiffResult; documents: SkippedDocument[] } {
  const generating = documents.map((document) => ({ ...document }));
  if (!generating.some((document) => document.generated)) return { diff, documents: generating };
  const liveById = new Map(live.map((object) => [keyId(keyOf(object)), object]));
  const unmatched = (key: ResourceKey, object: KubeObject | undefined): boolean => {
    const document = generating.find((candidate) => madeFrom(key, object, candidate));
    if (!document) return true;
    document.made = [...(document.made ?? []), displayKey(key)].sort();
    return false;
  };
  const resources = diff.resources.filter((r) => r.status !== 'extra' || unmatched(r.key, r.live));
  const owned = diff.owned?.filter((o) => unmatched(o.key, liveById.get(keyId(o.key))));
  const matched = { ...diff, resources, summary: summarize(resources), ...(owned ? { owned } : {}) };
  return { diff: matched, documents: generating };
}

/**
 * A plan with head's generateName manifests listed as created on every sync, and without the prunes of
 * the live objects they made: no controller prunes a run-once object, and none is ever "missing".
 */
export function planGeneratedNames(
  plan: Plan,
  documents: readonly SkippedDocument[],
  live: readonly KubeObject[],
): Plan {
  const generating = documents.filter((document) => document.code === 'generate-name' && document.generated);
  if (generating.length === 0) return plan;
  const liveById = new Map(live.map((object) => [keyId(keyOf(object)), object]));
  const listed = generating.map((document) => ({ ...document, made: [] as string[] }));
  const prune = plan.prune.filter((entry) => {
    const document = listed.find((candidate) => madeFrom(entry.id, liveById.get(keyId(entry.id)), candidate));
    if (!document) return true;
    document.made.push(displayKey(entry.id));
    return false;
  });
  const generated = listed.map(({ made, ...document }) =>
    made.length ? { ...document, made: made.sort() } : document,
  );
  // A hook's generateName manifest (Argo CD runs hooks with generateName routinely) is a hook, listed so.
  const hooks: PlanHook[] = [];
  const others = generated.filter((document) => {
    const hook = hookOf(document);
    if (hook) hooks.push({ id: generatedKey(document.generated!), hook, file: document.file });
    return !hook;
  });
  return { ...plan, prune, generated: others, ...(hooks.length ? { hooks: [...(plan.hooks ?? []), ...hooks] } : {}) };
}

function hookOf(document: SkippedDocument): SyncHook | undefined {
  const annotations = document.generated?.annotations;
  return annotations ? syncHookOf({ apiVersion: '', kind: '', metadata: { annotations } }) : undefined;
}

/** What a generateName manifest makes, as a key: `Job/shop/migrate-*`. */
function generatedKey(made: NonNullable<SkippedDocument['generated']>): ResourceKey {
  return { group: made.group, kind: made.kind, namespace: made.namespace ?? '', name: `${made.prefix}*` };
}
