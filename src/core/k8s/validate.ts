// A manifest checked against the Kubernetes OpenAPI schema of its kind (schema.generated.ts): every
// field one the API server knows, of the right type, with the required fields present. Codify runs it
// on each new file before writing it, so a manifest the API server would reject is never proposed.
// Kinds the table does not hold (custom resources) are not checked here.
import { groupOf, isPlainObject, versionOf, type KubeObject } from '../model/index.js';
import { DEFS, KINDS } from './schema.generated.js';

export interface SchemaProblem {
  /** JSON pointer of the field. */
  path: string;
  message: string;
}

function escape(field: string): string {
  return field.replace(/~/g, '~0').replace(/\//g, '~1');
}

function check(value: unknown, type: string, path: string, problems: SchemaProblem[]): void {
  if (value === null || value === undefined || type === 'x') return;
  const wrong = (expected: string): void => {
    problems.push({ path, message: `must be ${expected}, not ${Array.isArray(value) ? 'a list' : typeof value}` });
  };
  switch (type[0]) {
    case 's':
      if (typeof value !== 'string') wrong('a string');
      return;
    case 'i':
      if (typeof value !== 'number' || !Number.isInteger(value)) wrong('an integer');
      return;
    case 'n':
      if (typeof value !== 'number') wrong('a number');
      return;
    case 'b':
      if (typeof value !== 'boolean') wrong('true or false');
      return;
    case 'o':
      if (!isPlainObject(value)) wrong('a map');
      return;
    case '[':
      if (!Array.isArray(value)) return wrong('a list');
      value.forEach((item, i) => check(item, type.slice(1), `${path}/${i}`, problems));
      return;
    case '{':
      if (!isPlainObject(value)) return wrong('a map');
      for (const [key, item] of Object.entries(value)) check(item, type.slice(1), `${path}/${escape(key)}`, problems);
      return;
    case '@': {
      if (!isPlainObject(value)) return wrong('a map');
      const def = DEFS[type.slice(1)];
      if (!def) return;
      for (const [field, item] of Object.entries(value)) {
        const fieldType = def.p[field];
        const at = `${path}/${escape(field)}`;
        if (fieldType === undefined) problems.push({ path: at, message: 'is not a field of this kind' });
        else check(item, fieldType, at, problems);
      }
      for (const field of def.r ?? []) {
        if (value[field] === undefined) problems.push({ path: `${path}/${escape(field)}`, message: 'is required' });
      }
      return;
    }
    default:
  }
}

/** What the API server would reject in a manifest of a built-in kind; [] when it is valid or not known here. */
export function schemaProblems(object: KubeObject): SchemaProblem[] {
  const apiVersion = object.apiVersion ?? '';
  const root = KINDS[`${groupOf(apiVersion)}/${versionOf(apiVersion)}/${object.kind}`];
  if (!root) return [];
  const problems: SchemaProblem[] = [];
  check(object, `@${root}`, '', problems);
  return problems;
}
