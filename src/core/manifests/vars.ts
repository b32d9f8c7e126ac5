// kustomize's `vars`: a var names an object (objref, matched by its current or earlier ids) and a
// field of it (fieldref, metadata.name by default). Each kustomization binds its vars once its own
// transformers ran; at the very end of the build, after name references, every `$(NAME)` in the
// fields of the varReference field specs (transformer-config.ts) is replaced by the field's value. A
// field that is exactly `$(NAME)` takes the value with its type; a substituted value remembers the
// scalar it came from, so codify can edit that scalar.
import type { FieldSource, SourceProblem } from '../model/index.js';
import type { KustomizationFile } from './kustomization-file.js';
import {
  currentId,
  groupOfResource,
  kindOf,
  versionOfResource,
  type BuildResource,
  type ResourceId,
} from './resource.js';
import { fieldsAt, gvkSelected, pathSegments, type TransformerConfig } from './transformer-config.js';
import { getString, type TrackedMap, type TrackedNode } from './tracked.js';

export interface BoundVar {
  name: string;
  fieldPath: string;
  target: BuildResource | undefined;
  kustomization: string;
  line?: number;
}

/** A var's value (the field it names) and the var, by name. */
type VarValue = { node: TrackedNode & { kind: 'scalar' }; v: BoundVar };
type VarValues = Map<string, VarValue>;

/** Binds the vars of one kustomization to the objects it built (problems for ambiguous or repeated ones). */
export function bindVars(
  k: KustomizationFile,
  entries: TrackedNode[],
  resources: BuildResource[],
  bound: BoundVar[],
): SourceProblem[] {
  const problems: SourceProblem[] = [];
  entries.forEach((entry, index) => {
    const problem = (message: string): void => {
      problems.push({ file: k.path, line: entry.source.location?.line, field: `vars[${index}]`, message });
    };
    const name = getString(entry, ['name']);
    const objref = entry.kind === 'map' ? entry.entries.get('objref') : undefined;
    if (!name || objref?.kind !== 'map') return problem('a var needs a name and an objref');
    if (bound.some((v) => v.name === name)) return problem(`var '${name}' already encountered`);
    const apiVersion = getString(objref, ['apiVersion']) ?? '';
    const slash = apiVersion.indexOf('/');
    const wanted: Partial<ResourceId> = {
      group: getString(objref, ['group']) ?? (slash > 0 ? apiVersion.slice(0, slash) : undefined),
      version: getString(objref, ['version']) ?? (apiVersion ? apiVersion.slice(slash + 1) : undefined),
      kind: getString(objref, ['kind']),
      name: getString(objref, ['name']),
      namespace: getString(objref, ['namespace']),
    };
    const matches = resources.filter((r) => [currentId(r), ...(r.prevIds ?? [])].some((id) => idMatches(id, wanted)));
    if (matches.length > 1)
      return problem(`found ${matches.length} resId matches for var ${name} (unable to disambiguate)`);
    const fieldPath =
      getString(entry, ['fieldref', 'fieldpath']) ?? getString(entry, ['fieldref', 'fieldPath']) ?? 'metadata.name';
    bound.push({ name, fieldPath, target: matches[0], kustomization: k.path, line: entry.source.location?.line });
  });
  return problems;
}

function idMatches(id: ResourceId, wanted: Partial<ResourceId>): boolean {
  if (wanted.kind !== id.kind || wanted.name !== id.name) return false;
  if (wanted.group && wanted.group !== id.group) return false;
  if (wanted.version && wanted.version !== id.version) return false;
  if (wanted.namespace && wanted.namespace !== id.namespace) return false;
  return true;
}

/** Replaces `$(NAME)` in the varReference fields of every object; problems for vars that resolve to nothing. */
export function resolveVars(resources: BuildResource[], bound: BoundVar[], config: TransformerConfig): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const values: VarValues = new Map();
  for (const v of bound) {
    const node = v.target ? fieldValue(v.target.root, v.fieldPath) : undefined;
    if (!v.target) {
      problems.push({
        file: v.kustomization,
        line: v.line,
        field: 'vars',
        message: `var '${v.name}' cannot be mapped to a field in the set of known resources`,
      });
    } else if (node?.kind !== 'scalar') {
      problems.push({
        file: v.kustomization,
        line: v.line,
        field: 'vars',
        message: `field specified in var '${v.name}' (${v.fieldPath}) not found in corresponding resource`,
      });
    } else values.set(v.name, { node, v });
  }
  if (values.size === 0) return problems;
  for (const resource of resources) {
    const gvk = { group: groupOfResource(resource), version: versionOfResource(resource), kind: kindOf(resource) };
    for (const spec of config.varReference) {
      if (!gvkSelected(gvk, spec)) continue;
      for (const field of fieldsAt(resource.root, pathSegments(spec.path))) {
        if (field.node.kind === 'scalar') field.parent.entries.set(field.key, substitute(field.node, values));
        else if (field.node.kind === 'map') replaceIn(field.node, values);
        else
          field.node.items = field.node.items.map((item) => (item.kind === 'scalar' ? substitute(item, values) : item));
      }
    }
  }
  return problems;
}

function replaceIn(map: TrackedMap, values: VarValues): void {
  for (const [key, value] of map.entries) if (value.kind === 'scalar') map.entries.set(key, substitute(value, values));
}

/** kustomize's DoReplacements: `$(NAME)` expands, `$$` escapes a dollar, unknown names stay as written. */
function substitute(node: TrackedNode & { kind: 'scalar' }, values: VarValues): TrackedNode {
  if (typeof node.value !== 'string' || !node.value.includes('$')) return node;
  const whole = /^\$\(([^)]*)\)$/.exec(node.value);
  if (whole && values.has(whole[1])) return wholeVar(node, values.get(whole[1])!);
  const { text, used } = expand(node.value, values);
  if (text === node.value) return node;
  const source: FieldSource = used
    ? { location: node.source.location, origin: { type: 'var', kustomization: used.kustomization, name: used.name } }
    : node.source;
  return { kind: 'scalar', value: text, source };
}

/** A field that is one `$(NAME)` takes the var's value with its type, and says where the value came from. */
function wholeVar(node: TrackedNode & { kind: 'scalar' }, value: VarValue): TrackedNode {
  const { node: from, v } = value;
  const location = from.source.origin.type === 'resource' ? from.source.location : undefined;
  const source: FieldSource = {
    location: node.source.location,
    origin: { type: 'var', kustomization: v.kustomization, name: v.name, ...(location ? { from: location } : {}) },
  };
  return { kind: 'scalar', value: from.value, source };
}

/** The text with each known `$(NAME)` expanded and `$$` unescaped; `used` is the last var expanded. */
function expand(input: string, values: VarValues): { text: string; used?: BoundVar } {
  let text = '';
  let used: BoundVar | undefined;
  for (let i = 0; i < input.length; i++) {
    const next = input[i + 1];
    if (input[i] !== '$' || next === undefined) {
      text += input[i];
      continue;
    }
    const close = next === '(' ? input.indexOf(')', i + 2) : -1;
    if (close < 0) {
      // `$$` is one dollar; a `$` before anything else (or an unclosed `$(`) stays as written.
      text += next === '$' ? '$' : `$${next}`;
      i += 1;
      continue;
    }
    const name = input.slice(i + 2, close);
    const found = values.get(name);
    if (found) {
      text += found.node.value === null ? '' : String(found.node.value);
      used = found.v;
    } else text += `$(${name})`;
    i = close;
  }
  return { text, used };
}

/** A var's fieldpath: dot-separated, `name[0]` indexes a list. */
function fieldValue(root: TrackedNode, fieldPath: string): TrackedNode | undefined {
  let current: TrackedNode | undefined = root;
  for (const part of fieldPath.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m || !current) return undefined;
    if (m[1]) current = current.kind === 'map' ? current.entries.get(m[1]) : undefined;
    for (const index of m[2].match(/\d+/g) ?? [])
      current = current?.kind === 'list' ? current.items[Number(index)] : undefined;
  }
  return current;
}
