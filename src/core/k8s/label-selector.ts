// A metav1.LabelSelector as apimachinery's LabelSelectorAsSelector reads it: every `matchLabels` pair
// and every `matchExpressions` requirement (In, NotIn, Exists, DoesNotExist) must hold; NotIn and
// DoesNotExist hold for an object without the label. A malformed selector is an error with its reason.
import { isPlainObject } from '../model/index.js';

export type LabelMatcher = (labels: Readonly<Record<string, string>>) => boolean;

type Requirement = { key: string; operator: string; values: string[] };

function requirement(item: unknown, index: number): Requirement | string {
  if (!isPlainObject(item) || typeof item.key !== 'string' || item.key === '')
    return `matchExpressions[${index}]: a key is needed`;
  const operator = String(item.operator ?? '');
  const values = Array.isArray(item.values) ? item.values.map(String) : [];
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) return `matchExpressions[${index}]: values must be non-empty for ${operator}`;
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) return `matchExpressions[${index}]: values must be empty for ${operator}`;
  } else return `matchExpressions[${index}]: "${operator}" is not a valid label selector operator`;
  return { key: item.key, operator, values };
}

function holds(req: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, req.key);
  switch (req.operator) {
    case 'In':
      return has && req.values.includes(labels[req.key]!);
    case 'NotIn':
      return !has || !req.values.includes(labels[req.key]!);
    case 'Exists':
      return has;
    default:
      return !has;
  }
}

/** The matcher of a label selector, or the reason it is not one. */
export function labelSelector(
  selector: unknown,
): { ok: true; matches: LabelMatcher; keys: string[] } | { ok: false; reason: string } {
  const given = isPlainObject(selector) ? selector : {};
  const requirements: Requirement[] = [];
  const labels = isPlainObject(given.matchLabels) ? given.matchLabels : {};
  for (const [key, value] of Object.entries(labels))
    requirements.push({ key, operator: 'In', values: [String(value)] });
  const expressions = Array.isArray(given.matchExpressions) ? given.matchExpressions : [];
  for (const [index, item] of expressions.entries()) {
    const read = requirement(item, index);
    if (typeof read === 'string') return { ok: false, reason: read };
    requirements.push(read);
  }
  const keys = requirements.map((req) => req.key);
  return { ok: true, keys, matches: (objectLabels) => requirements.every((req) => holds(req, objectLabels)) };
}
