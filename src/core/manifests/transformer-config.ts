// kustomize's transformer configuration: the field specs each built-in transformer writes (its
// defaults, kustomize-field-specs.generated.ts) plus what a kustomization's `configurations` files
// add. A field spec names kinds (group/version/kind, empty matching any) and a path whose segments
// step through maps; a list on the way is entered item by item, as kustomize's fieldspec filter does.
import { parse } from 'yaml';
import { KUSTOMIZE_FIELD_SPECS } from './kustomize-field-specs.generated.js';
import type { TrackedMap, TrackedNode } from './tracked.js';
import { gvkSortString, kindRank } from './gvk-order.js';

export interface Gvk {
  group?: string;
  version?: string;
  kind?: string;
}

export interface PathSpec extends Gvk {
  path: string;
  create?: boolean;
}

export interface NameBackReference extends Gvk {
  fieldSpecs: PathSpec[];
}

export interface TransformerConfig {
  namePrefix: PathSpec[];
  nameSuffix: PathSpec[];
  commonLabels: PathSpec[];
  templateLabels: PathSpec[];
  volumeClaimTemplateLabels: PathSpec[];
  /** Specs every `labels:` entry also writes to (a configuration's `labels:` section; none by default). */
  labels: PathSpec[];
  commonAnnotations: PathSpec[];
  namespace: PathSpec[];
  varReference: PathSpec[];
  nameReference: NameBackReference[];
  images: PathSpec[];
  replicas: PathSpec[];
}

const KEYS = [
  'namePrefix',
  'nameSuffix',
  'commonLabels',
  'templateLabels',
  'volumeClaimTemplateLabels',
  'labels',
  'commonAnnotations',
  'namespace',
  'varReference',
  'images',
  'replicas',
] as const;

let defaults: TransformerConfig | undefined;

export function defaultTransformerConfig(): TransformerConfig {
  if (!defaults) {
    const config = emptyConfig();
    for (const text of Object.values(KUSTOMIZE_FIELD_SPECS)) mergeConfig(config, readConfig(parse(text) as unknown));
    defaults = config;
  }
  return defaults;
}

export function emptyConfig(): TransformerConfig {
  return {
    namePrefix: [],
    nameSuffix: [],
    commonLabels: [],
    templateLabels: [],
    volumeClaimTemplateLabels: [],
    labels: [],
    commonAnnotations: [],
    namespace: [],
    varReference: [],
    nameReference: [],
    images: [],
    replicas: [],
  };
}

/** A configuration document (plain value) → its field specs; unknown keys are ignored, as kustomize does. */
export function readConfig(value: unknown): Partial<TransformerConfig> {
  const out: Partial<TransformerConfig> = {};
  if (typeof value !== 'object' || value === null) return out;
  const doc = value as Record<string, unknown>;
  for (const key of KEYS) if (Array.isArray(doc[key])) out[key] = (doc[key] as unknown[]).flatMap(pathSpec);
  if (Array.isArray(doc.nameReference)) {
    out.nameReference = (doc.nameReference as unknown[]).flatMap((entry) => {
      if (typeof entry !== 'object' || entry === null) return [];
      const e = entry as Record<string, unknown>;
      const fieldSpecs = Array.isArray(e.fieldSpecs) ? e.fieldSpecs.flatMap(pathSpec) : [];
      return [{ ...gvkOf(e), fieldSpecs }];
    });
  }
  return out;
}

function gvkOf(e: Record<string, unknown>): Gvk {
  const gvk: Gvk = {};
  if (typeof e.group === 'string') gvk.group = e.group;
  if (typeof e.version === 'string') gvk.version = e.version;
  if (typeof e.kind === 'string') gvk.kind = e.kind;
  return gvk;
}

function pathSpec(entry: unknown): PathSpec[] {
  if (typeof entry !== 'object' || entry === null) return [];
  const e = entry as Record<string, unknown>;
  if (typeof e.path !== 'string') return [];
  return [{ ...gvkOf(e), path: e.path, create: e.create === true }];
}

const sameGvk = (a: Gvk, b: Gvk): boolean =>
  (a.group ?? '') === (b.group ?? '') && (a.version ?? '') === (b.version ?? '') && (a.kind ?? '') === (b.kind ?? '');

/** Two specs disagree on `create` where kustomize takes them for the same one: it refuses the build. */
export class ConflictingFieldSpecs extends Error {}

/**
 * Merges `extra` into `config` (in place) as kustomize does: the specs of each transformer are
 * sorted in kustomize's kind order and then taken in turn, a spec being left out when one already
 * taken has its path and kinds it selects (so a `configurations` spec for `metadata/name` of one
 * kind replaces the default spec for every kind); back references merge by kind.
 */
export function mergeConfig(config: TransformerConfig, extra: Partial<TransformerConfig>): TransformerConfig {
  for (const key of KEYS) config[key] = mergeSpecs([], sortSpecs(mergeSpecs(config[key], extra[key] ?? [])));
  for (const ref of extra.nameReference ?? []) {
    const existing = config.nameReference.find((r) => sameGvk(r, ref));
    if (!existing) config.nameReference.push({ ...ref, fieldSpecs: [...ref.fieldSpecs] });
    else existing.fieldSpecs = mergeSpecs(existing.fieldSpecs, ref.fieldSpecs);
  }
  return config;
}

/** kustomize's FsSlice.MergeAll: each incoming spec is added unless one taken already stands for it. */
function mergeSpecs(taken: readonly PathSpec[], incoming: readonly PathSpec[]): PathSpec[] {
  const out = [...taken];
  for (const spec of incoming) {
    const same = out.find((s) => s.path === spec.path && gvkSelected(fullGvk(s), spec));
    if (!same) out.push(spec);
    else if ((same.create ?? false) !== (spec.create ?? false))
      throw new ConflictingFieldSpecs(
        `conflicting field specs for ${spec.path}: one creates the field and one does not (${describeGvk(same)}, ${describeGvk(spec)})`,
      );
  }
  return out;
}

/** Stable sort in kustomize's kind order (kyaml Gvk.IsLessThan). */
function sortSpecs(specs: readonly PathSpec[]): PathSpec[] {
  const key = (s: PathSpec): [number, string] => [
    kindRank(s.kind ?? ''),
    gvkSortString(s.group ?? '', s.version ?? '', s.kind ?? ''),
  ];
  return [...specs].sort((a, b) => {
    const [ra, sa] = key(a);
    const [rb, sb] = key(b);
    return ra !== rb ? ra - rb : sa < sb ? -1 : sa > sb ? 1 : 0;
  });
}

const fullGvk = (g: Gvk): Required<Gvk> => ({ group: g.group ?? '', version: g.version ?? '', kind: g.kind ?? '' });
const describeGvk = (g: Gvk): string => [g.group, g.version, g.kind].filter(Boolean).join('/') || 'any kind';

function copyConfig(config: TransformerConfig): TransformerConfig {
  return mergeConfig(emptyConfig(), config);
}

let defaultsCopied: TransformerConfig | undefined;

/**
 * `copyConfig(defaultTransformerConfig())`, merged once: a merged config merged again is itself (no
 * spec stands for a later one, the order is sorted), so each build context gets a plain copy of it —
 * its own lists and name references, the specs shared as `copyConfig` shares them.
 */
export function defaultConfigCopy(): TransformerConfig {
  defaultsCopied ??= copyConfig(defaultTransformerConfig());
  const copy = { ...defaultsCopied };
  for (const key of KEYS) copy[key] = [...defaultsCopied[key]];
  copy.nameReference = defaultsCopied.nameReference.map((ref) => ({ ...ref, fieldSpecs: [...ref.fieldSpecs] }));
  return copy;
}

/** Whether an object of `gvk` is selected by `selector` (its empty parts match anything). */
export function gvkSelected(gvk: Required<Gvk>, selector: Gvk): boolean {
  return (
    (!selector.group || selector.group === gvk.group) &&
    (!selector.version || selector.version === gvk.version) &&
    (!selector.kind || selector.kind === gvk.kind)
  );
}

/** Path segments; `\/` is a slash inside a key (kustomize's escape), `[]` marks a list. */
export function pathSegments(path: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    if (path[i] === '\\' && path[i + 1] === '/') {
      current += '/';
      i += 1;
    } else if (path[i] === '/') {
      out.push(current);
      current = '';
    } else current += path[i];
  }
  out.push(current);
  return out.filter((s) => s !== '');
}

/** Where a field spec path ends in `root`: the parent map and key of each node found (lists entered). */
export function fieldsAt(
  root: TrackedNode,
  segments: readonly string[],
): { parent: TrackedMap; key: string; node: TrackedNode }[] {
  const out: { parent: TrackedMap; key: string; node: TrackedNode }[] = [];
  const walk = (node: TrackedNode, i: number): void => {
    if (node.kind === 'list') {
      for (const item of node.items) walk(item, i);
      return;
    }
    if (node.kind !== 'map') return;
    const key = segments[i].endsWith('[]') ? segments[i].slice(0, -2) : segments[i];
    const child = node.entries.get(key);
    if (!child) return;
    if (i === segments.length - 1) out.push({ parent: node, key, node: child });
    else walk(child, i + 1);
  };
  if (segments.length > 0) walk(root, 0);
  return out;
}
