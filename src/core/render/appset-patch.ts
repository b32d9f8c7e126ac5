// An ApplicationSet's `spec.templatePatch` applied to one generated Application, as the applicationset
// controller does (controllers/template/template.go renderTemplatePatch, patch.go applyTemplatePatch):
// the patch text is rendered with the generator's parameters like the template's strings, read as JSON
// when it starts with `{` and as YAML otherwise (sigs.k8s.io/yaml), and applied as a strategic merge
// patch (k8s.io/apimachinery strategicpatch) with the Application type's patch metadata: maps merge,
// `null` deletes a key, lists are replaced (no Application field merges lists by key), `$patch:
// replace|delete` and `$retainKeys` act on maps. `spec.project` always stays the template's. A patch
// that Argo CD refuses leaves the ApplicationSet not rendered with the reason.
import { isPlainObject } from '../model/index.js';
import { renderTemplateString, type Params, type TemplateMode } from './appset-template.js';
import { applicationTypeError } from './appset-patch-types.js';
import { yamlToJson } from './go-yaml.js';

type Json = Record<string, unknown>;
export type Patched = { ok: true; value: Json } | { ok: false; reason: string };

class PatchError extends Error {}

const DELETE_FROM_LIST = '$deleteFromPrimitiveList/';
const SET_ORDER = '$setElementOrder/';

/** utils.go ConvertYAMLToJSON, then json.Unmarshal into an Application: a map, or nothing. */
function patchValue(text: string): { value: Json | null } | { failure: string } {
  let value: unknown;
  if (text.trim().startsWith('{')) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { failure: `invalid templatePatch: ${(error as Error).message}` };
    }
  } else {
    const read = yamlToJson(text);
    if ('failure' in read) return { failure: `error while converting templatePatch to JSON: ${read.failure}` };
    value = read.value;
  }
  if (value !== null && !isPlainObject(value)) {
    const type = Array.isArray(value) ? 'array' : typeof value;
    return {
      failure: `invalid templatePatch: json: cannot unmarshal ${type} into Go value of type v1alpha1.Application`,
    };
  }
  const error = applicationTypeError(value);
  return error ? { failure: `invalid templatePatch: ${error}` } : { value };
}

/** The patched Application: `application` is the rendered template with its finalizer, before its namespace is set. */
export function applyTemplatePatch(application: Json, patchText: string, params: Params, mode: TemplateMode): Patched {
  const rendered = renderTemplateString(patchText, params, mode);
  if (!rendered.ok) return { ok: false, reason: `templatePatch: ${rendered.reason}` };
  const patch = patchValue(rendered.text);
  if ('failure' in patch) return { ok: false, reason: patch.failure };
  if (patch.value === null) return { ok: true, value: application };
  let merged: Json;
  try {
    merged = mergeMap(application, patch.value, false);
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    return { ok: false, reason: `error while applying templatePatch: ${error.message}` };
  }
  // patch.go: "Prevent changes to the `project` field."
  const spec = isPlainObject(merged.spec) ? { ...merged.spec } : {};
  const project = isPlainObject(application.spec) ? application.spec.project : undefined;
  if (project === undefined) delete spec.project;
  else spec.project = project;
  return { ok: true, value: { ...merged, spec } };
}

/** handleDirectiveInMergeMap: `replace` takes the patch's map as it is, `delete` leaves an empty map. */
function directive(patch: Json): Json | undefined {
  if (!Object.hasOwn(patch, '$patch')) return undefined;
  const kind = patch.$patch;
  if (kind === 'replace') return cleaned(patch, false) as Json;
  if (kind === 'delete') return {};
  throw new PatchError(`unknown patch type: ${String(kind)} in map`);
}

/** applyRetainKeysDirective: keys of the original not listed go; a patch key not listed is an error. */
function retainKeys(original: Json, patch: Json): void {
  if (!Object.hasOwn(patch, '$retainKeys')) return;
  const kept = patch.$retainKeys;
  if (!Array.isArray(kept)) throw new PatchError('invalid patch format: $retainKeys is not a list');
  for (const [key, value] of Object.entries(patch))
    if (value !== null && !key.startsWith('$') && !kept.includes(key))
      throw new PatchError(`invalid patch format: ${key} is not in $retainKeys`);
  for (const key of Object.keys(original)) if (!kept.includes(key)) delete original[key];
}

/**
 * mergeMap with the Application's patch metadata. Inside `valuesObject` (a RawExtension, no fields to
 * look up) a key both sides hold with one JSON type fails, as Argo CD fails it.
 */
function mergeMap(original: Json, patch: Json, raw: boolean): Json {
  const replaced = directive(patch);
  if (replaced) return replaced;
  const out: Json = { ...original };
  retainKeys(out, patch);
  for (const [name, value] of Object.entries(patch)) {
    if (name === '$retainKeys') continue;
    if (name.startsWith(SET_ORDER)) throw new PatchError(`${name} is not applied to an Application's lists`);
    const key = name.startsWith(DELETE_FROM_LIST) ? name.slice(DELETE_FROM_LIST.length) : name;
    if (value === null) delete out[key];
    else if (!Object.hasOwn(out, key)) out[key] = cleaned(value, raw || key === 'valuesObject');
    else if (jsonType(out[key]) !== jsonType(value)) out[key] = cleaned(value, raw || key === 'valuesObject');
    else if (raw) throw new PatchError(`unable to find api field in struct RawExtension for the json field "${key}"`);
    else if (isPlainObject(value)) out[key] = mergeMap(out[key] as Json, value, key === 'valuesObject');
    else out[key] = cleaned(value, false);
  }
  return out;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  return value === null ? 'null' : typeof value;
}

/**
 * A value taken from the patch as the Application type reads it back: a `null` field is no field and
 * a directive is no field of a struct; a `valuesObject` (raw JSON) is kept as written.
 */
function cleaned(value: unknown, raw: boolean): unknown {
  if (raw) return value;
  if (Array.isArray(value)) return value.map((item) => cleaned(item, false));
  if (!isPlainObject(value)) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value))
    if (item !== null && key !== '$patch' && key !== '$retainKeys') out[key] = cleaned(item, key === 'valuesObject');
  return out;
}
