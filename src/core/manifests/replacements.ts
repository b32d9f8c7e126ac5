// kustomize's `replacements`: copy a value from one object's field (or a literal `sourceValue`) into
// fields of other objects. Field paths are kustomize's: dot-separated, `[key=value]` picks a list item,
// `*` every item, a number an index; a scalar target keeps its own type (kustomize replaces the text
// of the YAML node, not its tag). A target field that holds YAML/JSON text can be entered too.
// Replaced values keep a `replacement` origin naming where the copied scalar is written, so codify can
// edit the source rather than the target.
import { parse, stringify } from 'yaml';
import type { FieldSource } from '../model/index.js';
import { currentId, type BuildResource, type ResourceId } from './resource.js';
import { compileAnchored, compileRe2, quoteRe2, type Pattern } from '../patterns/index.js';
import { parseSelector } from './select-target.js';
import { cloneTracked, toPlain, trackPlain, type TrackedList, type TrackedMap, type TrackedNode } from './tracked.js';

export interface Replacement {
  index: number;
  sourceValue?: TrackedNode;
  source?: { id: Partial<ResourceId>; fieldPath: string; delimiter?: string; index?: number };
  targets: ReplacementTarget[];
}

interface Selector extends Partial<ResourceId> {
  labelSelector?: string;
  annotationSelector?: string;
}

interface ReplacementTarget {
  select: Selector;
  reject: Selector[];
  fieldPaths: string[];
  create: boolean;
  delimiter?: string;
  index?: number;
}

/** Reads one replacement entry (a plain value); a message when it is not one. */
export function readReplacement(value: unknown, index: number, sourceValueNode?: TrackedNode): Replacement | string {
  if (typeof value !== 'object' || value === null) return 'expected a mapping with source and targets';
  const r = value as Record<string, unknown>;
  if ((r.source === undefined && r.sourceValue === undefined) || !Array.isArray(r.targets))
    return 'replacements must specify a source and at least one target';
  if (r.source !== undefined && r.sourceValue !== undefined)
    return 'value and resource selectors are mutually exclusive';
  const out: Replacement = { index, targets: [] };
  if (r.sourceValue !== undefined)
    out.sourceValue = sourceValueNode ?? trackPlain(String(r.sourceValue), { origin: { type: 'resource' } });
  if (r.source !== undefined) {
    const s = r.source as Record<string, unknown>;
    const options = (s.options ?? {}) as Record<string, unknown>;
    out.source = {
      id: idSelector(s),
      fieldPath: typeof s.fieldPath === 'string' && s.fieldPath ? s.fieldPath : 'metadata.name',
      delimiter: typeof options.delimiter === 'string' && options.delimiter ? options.delimiter : undefined,
      index: typeof options.index === 'number' ? options.index : 0,
    };
  }
  for (const t of r.targets as unknown[]) {
    const target = (t ?? {}) as Record<string, unknown>;
    if (typeof target.select !== 'object' || target.select === null) return 'target must specify resources to select';
    const options = (target.options ?? {}) as Record<string, unknown>;
    out.targets.push({
      select: selector(target.select as Record<string, unknown>),
      reject: Array.isArray(target.reject)
        ? target.reject.map((x) => selector((x ?? {}) as Record<string, unknown>))
        : [],
      fieldPaths:
        Array.isArray(target.fieldPaths) && target.fieldPaths.length > 0
          ? target.fieldPaths.map(String)
          : ['metadata.name'],
      create: options.create === true,
      delimiter: typeof options.delimiter === 'string' && options.delimiter ? options.delimiter : undefined,
      index: typeof options.index === 'number' ? options.index : 0,
    });
  }
  return out;
}

function idSelector(s: Record<string, unknown>): Partial<ResourceId> {
  const id: Partial<ResourceId> = {};
  for (const key of ['group', 'version', 'kind', 'name', 'namespace'] as const)
    if (typeof s[key] === 'string') id[key] = s[key] as string;
  return id;
}

function selector(s: Record<string, unknown>): Selector {
  const out: Selector = idSelector(s);
  if (typeof s.labelSelector === 'string') out.labelSelector = s.labelSelector;
  if (typeof s.annotationSelector === 'string') out.annotationSelector = s.annotationSelector;
  return out;
}

/** Every id an object may be selected by: its current one and each it had before a rename. */
function idsOf(r: BuildResource): ResourceId[] {
  return [currentId(r), ...(r.prevIds ?? [])];
}

/** Applies the replacements in order; throws an Error with kustomize's reason when one cannot apply. */
export function applyReplacements(
  resources: BuildResource[],
  replacements: readonly Replacement[],
  kustomization: string,
): void {
  for (const replacement of replacements) {
    const value = sourceValueOf(resources, replacement);
    const from = value.kind === 'scalar' && value.source.origin.type === 'resource' ? value.source.location : undefined;
    const source: FieldSource = {
      location: value.source.location,
      origin: { type: 'replacement', kustomization, index: replacement.index, ...(from ? { from } : {}) },
    };
    for (const target of replacement.targets) {
      const select = idMatcher(target.select, 'select');
      const rejects = target.reject.map((reject, i) => ({ reject, matches: idMatcher(reject, `reject[${i}]`) }));
      for (const resource of resources) {
        const ids = idsOf(resource);
        if (!ids.some(select) || !metadataSelects(resource, target.select)) continue;
        if (
          rejects.some(
            ({ reject, matches }) =>
              (selectsAny(reject) && ids.some(matches)) ||
              (hasMetadataSelector(reject) && metadataSelects(resource, reject)),
          )
        )
          continue;
        for (const fieldPath of target.fieldPaths) setField(resource, fieldPath, value, target, source);
      }
    }
  }
}

function sourceValueOf(resources: BuildResource[], replacement: Replacement): TrackedNode {
  if (replacement.sourceValue) return replacement.sourceValue;
  const source = replacement.source!;
  const matches = resources.filter((r) => idsOf(r).some((id) => selects(source.id, id)));
  if (matches.length === 0) throw new Error(`nothing selected by ${describe(source.id)}`);
  if (matches.length > 1) throw new Error(`multiple matches for selector ${describe(source.id)}`);
  const found = lookup(matches[0].root, splitPath(source.fieldPath));
  if (!found || isNilOrEmpty(found)) {
    throw new Error(`fieldPath \`${source.fieldPath}\` is missing for replacement source ${describe(source.id)}`);
  }
  if (!source.delimiter) return found;
  if (found.kind !== 'scalar') throw new Error('delimiter option can only be used with scalar nodes');
  const parts = scalarText(found).split(source.delimiter);
  const at = source.index ?? 0;
  if (at < 0 || at >= parts.length)
    throw new Error(`options.index ${at} is out of bounds for value ${scalarText(found)}`);
  // A part of a value is not the written scalar: codify cannot edit it in place.
  return { kind: 'scalar', value: parts[at], source: { origin: { type: 'resource' } } } as TrackedNode;
}

/**
 * kyaml's IsNilOrEmpty (with a missing field): null, an empty map or list is no value to copy; the empty
 * string is one (an env file's `KEY=`), and a replacement copies it.
 */
function isNilOrEmpty(node: TrackedNode): boolean {
  if (node.kind === 'scalar') return node.value === null;
  return node.kind === 'map' ? node.entries.size === 0 : node.items.length === 0;
}

function describe(id: Partial<ResourceId>): string {
  return (
    Object.entries(id)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ') || 'an empty selector'
  );
}

function selectsAny(s: Selector): boolean {
  return Boolean(s.group || s.version || s.kind || s.name || s.namespace);
}

function hasMetadataSelector(s: Selector): boolean {
  return Boolean(s.labelSelector || s.annotationSelector);
}

/** A source selector compares exactly. */
function selects(selector: Partial<ResourceId>, id: ResourceId): boolean {
  for (const key of ID_KEYS) {
    const wanted = selector[key];
    if (wanted === undefined || wanted === '') continue;
    if (wanted !== (key === 'namespace' ? namespaceFor(wanted, id) : id[key])) return false;
  }
  return true;
}

const ID_KEYS = ['group', 'version', 'kind', 'name', 'namespace'] as const;

/** An object in the default namespace is selected by no other namespace (kustomize's effective namespace). */
function namespaceFor(wanted: string, id: ResourceId): string {
  return id.namespace === 'default' && wanted !== 'default' ? '' : id.namespace;
}

/**
 * Target `select` and `reject` ids are anchored RE2 patterns (kustomize's NewSelectorRegex), compiled
 * once per target and matched in linear time; one RE2 refuses stops the replacement with its reason.
 */
function idMatcher(selector: Partial<ResourceId>, where: string): (id: ResourceId) => boolean {
  const fields: Array<[(typeof ID_KEYS)[number], string, Pattern]> = [];
  for (const key of ID_KEYS) {
    const wanted = selector[key];
    if (wanted === undefined || wanted === '') continue;
    const compiled = compileAnchored(wanted);
    if (!compiled.ok) throw new Error(`${where}.${key} "${wanted}": ${compiled.message}`);
    fields.push([key, wanted, compiled.pattern]);
  }
  return (id) =>
    fields.every(([key, wanted, pattern]) => pattern.test(key === 'namespace' ? namespaceFor(wanted, id) : id[key]));
}

function metadataSelects(resource: BuildResource, s: Selector): boolean {
  const pairs = (key: string): Map<string, string> => {
    const node = resource.root.entries.get('metadata');
    const map = node?.kind === 'map' ? node.entries.get(key) : undefined;
    const out = new Map<string, string>();
    if (map?.kind === 'map')
      for (const [k, v] of map.entries) if (v.kind === 'scalar') out.set(k, String(v.value ?? ''));
    return out;
  };
  if (s.labelSelector && !parseSelector(s.labelSelector)(pairs('labels'))) return false;
  if (s.annotationSelector && !parseSelector(s.annotationSelector)(pairs('annotations'))) return false;
  return true;
}

/** kustomize's SmarterPathSplitter: split on '.', `\.` escapes a dot, `[a.b=c]` stays whole. */
export function splitPath(path: string): string[] {
  const raw: string[] = [];
  for (const part of path.split('.')) {
    if (raw.length > 0 && raw[raw.length - 1].endsWith('\\'))
      raw[raw.length - 1] = `${raw[raw.length - 1].slice(0, -1)}.${part}`;
    else raw.push(part);
  }
  if (raw.length > 1 && raw[0] === '') raw.shift();
  const out: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i].startsWith('[') && !raw[i].endsWith(']')) {
      const bracketed = [raw[i]];
      while (i < raw.length - 1) {
        i += 1;
        bracketed.push(raw[i]);
        if (raw[i].endsWith(']')) break;
      }
      const joined = bracketed.join('.');
      out.push(joined.includes('=') ? joined : joined.replace(/^\[|\]$/g, ''));
    } else out.push(raw[i]);
  }
  return out;
}

/** `[name=api-*]`: `*` stands for any text, compiled as RE2 so a long value is matched in linear time. */
function valueGlob(value: string): Pattern {
  const compiled = compileRe2(`(?s)^${value.split('*').map(quoteRe2).join('.*')}$`);
  return compiled.ok ? compiled.pattern : { test: (text) => text === value };
}

function matcher(segment: string): { key: string; value: string } | undefined {
  const m = /^\[([^=]+)=(.*)\]$/.exec(segment);
  return m ? { key: m[1], value: m[2] } : undefined;
}

/** The node at a source path (one match: `[k=v]` takes the first item that has it). */
function lookup(node: TrackedNode | undefined, segments: string[]): TrackedNode | undefined {
  let current = node;
  for (const segment of segments) {
    if (!current) return undefined;
    const m = matcher(segment);
    if (current.kind === 'list') {
      if (m)
        current = current.items.find((item) => item.kind === 'map' && scalarText(item.entries.get(m.key)) === m.value);
      else if (/^\d+$/.test(segment)) current = current.items[Number(segment)];
      else if (segment === '-') current = current.items[current.items.length - 1];
      else return undefined;
    } else if (current.kind === 'map') current = current.entries.get(segment);
    else return undefined;
  }
  return current;
}

function scalarText(node: TrackedNode | undefined): string {
  if (node?.kind !== 'scalar' || node.value === null) return '';
  return String(node.value);
}

type Slot = { get: () => TrackedNode | undefined; set: (node: TrackedNode) => void };

/** The walk of one target path: its segments, whether missing fields are made, and the slots reached. */
interface SlotWalk {
  segments: string[];
  create: boolean;
  source: FieldSource;
  reached: Slot[];
}

/** Every field a target path reaches (creating it with `create`). */
function slotsAt(root: TrackedNode, segments: string[], create: boolean, source: FieldSource): Slot[] {
  const walk: SlotWalk = { segments, create, source, reached: [] };
  visit(walk, root, 0, { get: () => root, set: () => undefined });
  return walk.reached;
}

function visit(walk: SlotWalk, node: TrackedNode, i: number, slot: Slot): void {
  if (i === walk.segments.length) walk.reached.push(slot);
  else if (node.kind === 'list') visitList(walk, node, i);
  else if (node.kind === 'map') visitMap(walk, node, i);
}

function itemSlot(list: TrackedList, at: number): Slot {
  return { get: () => list.items[at], set: (n) => (list.items[at] = n) };
}

function entrySlot(map: TrackedMap, key: string): Slot {
  return { get: () => map.entries.get(key), set: (n) => map.entries.set(key, n) };
}

/** In a list, a segment is `[key=glob]` (the items that match), `*` (every item) or an index. */
function visitList(walk: SlotWalk, list: TrackedList, i: number): void {
  const segment = walk.segments[i];
  const m = matcher(segment);
  if (m) {
    for (const item of matchingItems(walk, list, m)) {
      const at = list.items.indexOf(item);
      visit(walk, item, i + 1, itemSlot(list, at));
    }
  } else if (segment === '*' || segment === '[*]') {
    list.items.forEach((item, at) => visit(walk, item, i + 1, itemSlot(list, at)));
  } else if (/^\d+$/.test(segment) && Number(segment) < list.items.length) {
    visit(walk, list.items[Number(segment)], i + 1, itemSlot(list, Number(segment)));
  }
}

/** The items whose `key` matches the glob; with `create` and no wildcard, a missing one is appended. */
function matchingItems(walk: SlotWalk, list: TrackedList, m: { key: string; value: string }): TrackedNode[] {
  const glob = valueGlob(m.value);
  const items = list.items.filter((item) => item.kind === 'map' && glob.test(scalarText(item.entries.get(m.key))));
  if (items.length > 0 || !walk.create || m.value.includes('*')) return items;
  const source = walk.source;
  const made: TrackedMap = {
    kind: 'map',
    entries: new Map([[m.key, { kind: 'scalar', value: m.value, source }]]),
    source,
  };
  list.items.push(made);
  return [made];
}

/** In a map, a segment is `*` (every field) or a field name. */
function visitMap(walk: SlotWalk, map: TrackedMap, i: number): void {
  const segment = walk.segments[i];
  if (segment === '*') {
    for (const key of map.entries.keys()) visit(walk, map.entries.get(key)!, i + 1, entrySlot(map, key));
    return;
  }
  const child = fieldToFollow(walk, map, i);
  if (child) visit(walk, child, i + 1, entrySlot(map, segment));
}

/** The field a segment names; with `create`, a missing one (or a null on the way) is made as what the next segment needs. */
function fieldToFollow(walk: SlotWalk, map: TrackedMap, i: number): TrackedNode | undefined {
  const { segments, source } = walk;
  const child = map.entries.get(segments[i]);
  const last = i === segments.length - 1;
  if (child && !(child.kind === 'scalar' && child.value === null && !last)) return child;
  if (!walk.create) return undefined;
  const next = segments[i + 1];
  const made: TrackedNode = last
    ? { kind: 'scalar', value: null, source }
    : next !== undefined && (matcher(next) || /^\d+$/.test(next))
      ? { kind: 'list', items: [], source }
      : { kind: 'map', entries: new Map(), source };
  map.entries.set(segments[i], made);
  return made;
}

function setField(
  resource: BuildResource,
  fieldPath: string,
  value: TrackedNode,
  target: ReplacementTarget,
  source: FieldSource,
): void {
  const segments = splitPath(fieldPath);
  if (setInStructuredData(resource, segments, value, target, source)) return;
  const slots = slotsAt(resource.root, segments, target.create, source);
  if (slots.length === 0)
    throw new Error(`unable to find ${target.create ? 'or create ' : ''}field "${fieldPath}" in replacement target`);
  for (const slot of slots) slot.set(replaced(slot.get(), value, target, source));
}

/** The new node: a scalar target keeps its type; a delimiter replaces one part of the target's text. */
function replaced(
  old: TrackedNode | undefined,
  value: TrackedNode,
  target: ReplacementTarget,
  source: FieldSource,
): TrackedNode {
  let node = value;
  if (target.delimiter) {
    if (old && old.kind !== 'scalar') throw new Error('delimiter option can only be used with scalar nodes');
    const parts = scalarText(old).split(target.delimiter);
    const at = target.index ?? 0;
    const text = scalarText(value);
    if (at < 0) parts.unshift(text);
    else if (at >= parts.length) parts.push(text);
    else parts[at] = text;
    node = { kind: 'scalar', value: parts.join(target.delimiter), source };
    return retype(old, node);
  }
  if (value.kind !== 'scalar') return relabel(cloneTracked(value), source);
  return retype(old, { kind: 'scalar', value: value.value, source });
}

/** kustomize sets the target node's text and keeps its tag: an int stays an int, a string a string. */
function retype(old: TrackedNode | undefined, node: TrackedNode): TrackedNode {
  if (node.kind !== 'scalar' || old?.kind !== 'scalar' || old.value === null) return node;
  const text = node.value === null ? '' : String(node.value);
  if (typeof old.value === 'string') return { ...node, value: text };
  if (typeof old.value === 'number' && text.trim() !== '' && Number.isFinite(Number(text)))
    return { ...node, value: Number(text) };
  if (typeof old.value === 'boolean' && (text === 'true' || text === 'false'))
    return { ...node, value: text === 'true' };
  return { ...node, value: text };
}

function relabel(node: TrackedNode, source: FieldSource): TrackedNode {
  node.source = source;
  if (node.kind === 'map') for (const child of node.entries.values()) relabel(child, source);
  if (node.kind === 'list') node.items.forEach((child) => relabel(child, source));
  return node;
}

/** A path through a string field holding YAML or JSON (a ConfigMap's config.json): edit inside the text. */
function setInStructuredData(
  resource: BuildResource,
  segments: string[],
  value: TrackedNode,
  target: ReplacementTarget,
  source: FieldSource,
): boolean {
  if (segments.length < 2) return false;
  for (let i = 1; i < segments.length; i++) {
    const holder = lookup(resource.root, segments.slice(0, i));
    if (holder?.kind !== 'scalar' || typeof holder.value !== 'string') continue;
    let data: unknown;
    try {
      data = parse(holder.value);
    } catch {
      return false;
    }
    if (typeof data !== 'object' || data === null) return false;
    const tracked = trackPlain(data, holder.source);
    const slots = slotsAt(tracked, segments.slice(i), target.create, source);
    if (slots.length === 0) return false;
    for (const slot of slots) slot.set(replaced(slot.get(), value, target, source));
    const isJson = /^\s*[{[]/.test(holder.value);
    const text = isJson ? JSON.stringify(toPlain(tracked)) : stringify(toPlain(tracked));
    const parent = lookup(resource.root, segments.slice(0, i - 1));
    const key = segments[i - 1];
    if (parent?.kind === 'map') parent.entries.set(key, { kind: 'scalar', value: text, source });
    return true;
  }
  return false;
}
