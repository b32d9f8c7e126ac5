// The Application type's fields as encoding/json decodes a templatePatch into them (patch.go:
// `json.Unmarshal(patch, &appv1.Application{})`): a string field takes only a string, a bool only
// true/false, an int64 only a whole number, a struct or map only a map, a list only a list, an
// int-or-string a string or a number; `null` fits anything and a field the type does not have is
// ignored. A patch that does not decode is refused by Argo CD before it is applied. The fields of spec,
// operation and status are generated from Argo CD's Application CRD (application-schema.generated.ts);
// metadata is Kubernetes' ObjectMeta, which the CRD does not spell out.
import { isPlainObject } from '../model/index.js';
import { APPLICATION_SHAPES } from './application-schema.generated.js';

/** The Go type a field decodes into (scripts/gen-application-schema.ts). */
export type GoShape =
  | 'string'
  | 'bool'
  | 'int64'
  | 'float64'
  | 'raw'
  | 'intOrString'
  | { list: GoShape }
  | { map: GoShape }
  | { fields: Readonly<Record<string, GoShape>> };

const STRINGS: GoShape = { map: 'string' };
const OBJECT_META: GoShape = {
  fields: {
    ...{ name: 'string', generateName: 'string', namespace: 'string', labels: STRINGS, annotations: STRINGS },
    ...{ finalizers: { list: 'string' }, uid: 'string', resourceVersion: 'string', generation: 'int64' },
    ...{ deletionGracePeriodSeconds: 'int64', ownerReferences: { list: { fields: {} } }, managedFields: 'raw' },
  },
};
const APPLICATION: GoShape = { fields: { metadata: OBJECT_META, ...APPLICATION_SHAPES } };

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  // encoding/json's names of JSON values: bool, not boolean.
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

function fits(value: unknown, shape: GoShape): boolean {
  if (shape === 'raw') return true;
  if (shape === 'string') return typeof value === 'string';
  if (shape === 'bool') return typeof value === 'boolean';
  if (shape === 'int64') return typeof value === 'number' && Number.isInteger(value);
  if (shape === 'float64') return typeof value === 'number';
  if (shape === 'intOrString') return typeof value === 'string' || typeof value === 'number';
  if ('list' in shape) return Array.isArray(value);
  return isPlainObject(value);
}

/** The Go type's name in the message: scalars by name, a struct as `struct`, lists and maps around them. */
function goTypeName(shape: GoShape): string {
  if (typeof shape === 'string') return shape;
  if ('list' in shape) return `[]${goTypeName(shape.list)}`;
  if ('map' in shape) return `map[string]${goTypeName(shape.map)}`;
  return 'struct';
}

/** Why the value does not decode into the Application type, or undefined when it does. */
export function applicationTypeError(value: unknown): string | undefined {
  return typeError(value, APPLICATION, '');
}

function typeError(value: unknown, shape: GoShape, path: string): string | undefined {
  if (value === null || shape === 'raw') return undefined;
  if (!fits(value, shape)) {
    // intstr.IntOrString decodes what is not a string as an int32 (its own UnmarshalJSON).
    if (shape === 'intOrString') return `json: cannot unmarshal ${jsonKind(value)} into Go value of type int32`;
    // A number that is no integer names itself, as encoding/json's literalStore says it (`number 1.5`).
    const what = shape === 'int64' && typeof value === 'number' ? `number ${String(value)}` : jsonKind(value);
    return `json: cannot unmarshal ${what} into Go struct field Application${path} of type ${goTypeName(shape)}`;
  }
  if (typeof shape === 'string') return undefined;
  if ('list' in shape) {
    for (const element of value as unknown[]) {
      const error = typeError(element, shape.list, path);
      if (error) return error;
    }
    return undefined;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    const field = 'map' in shape ? shape.map : Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    const error = field === undefined ? undefined : typeError(item, field, `${path}.${key}`);
    if (error) return error;
  }
  return undefined;
}
