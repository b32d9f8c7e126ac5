// sprig's JSON functions (defaults.go) on encoding/json: toJson and toPrettyJson escape `<`, `>`, `&`
// (toRawJson does not), U+2028/2029 always; map keys sorted; a *semver.Version as its text, a time.Time
// as RFC 3339 with nanoseconds. fromJson reads numbers as float64 and gives nil for text that is not
// JSON; the must forms stop with the error instead.
import { unary } from './args.js';
import type { TemplateFunction } from './exec.js';
import { formatTime } from './go-time.js';
import { GoObject, goType, isMap, type Value } from './go-values.js';
import { TemplateError } from './parser.js';
import { timeOf } from './time-value.js';

/** The value as encoding/json sees it: ints as numbers, maps with sorted keys, Go values by their MarshalJSON. */
function plain(value: Value): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof GoObject) {
    const t = timeOf(value);
    return t ? formatTime('2006-01-02T15:04:05.999999999Z07:00', t) : value.text;
  }
  if (isMap(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, plain(value[key])]),
    );
  return value === undefined ? null : value;
}

function jsonText(value: Value, html: boolean, indent?: number): string {
  const text = JSON.stringify(plain(value), null, indent) ?? 'null';
  return text.replace(
    html ? /[<>&\u2028\u2029]/g : /[\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** encoding/json Marshal: map keys sorted, `<`, `>`, `&` and U+2028/2029 escaped. */
export function toJson(value: Value): string {
  return jsonText(value, true);
}

/** json.Unmarshal into interface{}: numbers as float64. */
function fromJson(text: Value, must: boolean): Value {
  if (typeof text !== 'string') throw new TemplateError(`wrong type for value; expected string; got ${goType(text)}`);
  try {
    return JSON.parse(text) as Value;
  } catch (error) {
    if (must) throw new TemplateError((error as Error).message);
    return null;
  }
}

export function jsonFunctions(): Record<string, TemplateFunction> {
  return {
    toJson: unary('toJson', toJson),
    mustToJson: unary('mustToJson', toJson),
    toPrettyJson: unary('toPrettyJson', (v) => jsonText(v, true, 2)),
    mustToPrettyJson: unary('mustToPrettyJson', (v) => jsonText(v, true, 2)),
    toRawJson: unary('toRawJson', (v) => jsonText(v, false)),
    mustToRawJson: unary('mustToRawJson', (v) => jsonText(v, false)),
    fromJson: unary('fromJson', (v) => fromJson(v, false)),
    mustFromJson: unary('mustFromJson', (v) => fromJson(v, true)),
  };
}
