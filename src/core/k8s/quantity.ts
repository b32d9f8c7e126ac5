// Kubernetes resource quantities (`500m`, `0.5`, `1Gi`, `1024Mi`, `1e3`, `1k`) compared by value.
// Values are reduced to an exact fraction (numerator / 10^scale) so 0.1 + rounding never decides.

const BINARY: Readonly<Record<string, bigint>> = {
  Ki: 1024n,
  Mi: 1024n ** 2n,
  Gi: 1024n ** 3n,
  Ti: 1024n ** 4n,
  Pi: 1024n ** 5n,
  Ei: 1024n ** 6n,
};
const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E))?$/;

/** A quantity as an exact rational: value = num / 10^scale. Undefined when the text is not a quantity. */
export function parseQuantity(input: unknown): { num: bigint; scale: number } | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? parseQuantity(String(input)) : undefined;
  if (typeof input !== 'string') return undefined;
  const match = QUANTITY.exec(input.trim());
  if (!match) return undefined;
  const [, sign, digits, binary, exponent, decimal] = match;
  const [whole, fraction = ''] = digits!.split('.');
  let num = BigInt((whole || '0') + fraction) * (sign === '-' ? -1n : 1n);
  let scale = fraction.length;
  if (binary) num *= BINARY[binary]!;
  const power = exponent ? Number(exponent.slice(1)) : DECIMAL[decimal ?? '']!;
  scale -= power;
  if (scale < 0) {
    num *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { num, scale };
}

/** True when both are quantities of the same value (`1Gi` = `1024Mi`, `500m` = `0.5`). */
export function quantitiesEqual(a: unknown, b: unknown): boolean {
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  if (!x || !y) return false;
  const scale = Math.max(x.scale, y.scale);
  return x.num * 10n ** BigInt(scale - x.scale) === y.num * 10n ** BigInt(scale - y.scale);
}

/** Maps whose values are quantities: container resources, quotas, capacities, limit ranges. */
const QUANTITY_MAPS = new Set([
  'requests',
  'limits',
  'capacity',
  'allocatable',
  'hard',
  'used',
  'default',
  'defaultRequest',
  'max',
  'min',
  'maxLimitRequestRatio',
  'overhead',
]);
const QUANTITY_FIELDS = new Set(['sizeLimit', 'storage']);

/** Whether the field at `parent`/`field` holds a quantity. */
export function isQuantityField(parent: string | undefined, field: string): boolean {
  return QUANTITY_FIELDS.has(field) || (parent !== undefined && QUANTITY_MAPS.has(parent));
}
