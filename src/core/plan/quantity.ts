// Kubernetes resource quantities compare by value: `500m` equals `0.5`, `1Gi` equals `1024Mi`.
const SUFFIX: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

export function quantityValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const match = QUANTITY.exec(value.trim());
  return match ? Number(match[1]) * SUFFIX[match[2] ?? ''] : undefined;
}

/** True when both are quantities of equal value (relative tolerance for float rounding). */
export function sameQuantity(a: unknown, b: unknown): boolean {
  const x = quantityValue(a);
  const y = quantityValue(b);
  if (x === undefined || y === undefined) return false;
  return x === y || Math.abs(x - y) <= Math.abs(x) * 1e-12;
}
