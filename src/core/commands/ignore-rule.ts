// `/driftback ignore` as a config change: the ignore rules (`drift.ignore`) that stop comparing the
// fields a command named, and `.github/driftback.yml` with them added. The file is edited byte-exactly
// (its comments, order and formatting stay; each rule is appended to `drift.ignore` in the file's own
// style), and the result must read back through the config parser with exactly those rules.
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { compileIgnoreRules } from '../classify/index.js';
import { setValueAt } from '../codify/index.js';
import { parseFieldPath, writeFieldPath } from '../k8s/index.js';
import { fromPointer, toPointer } from '../model/index.js';
import { parseConfig, type IgnoreRule } from '../config/index.js';
import { renderCollection, DEFAULT_BLOCK_STYLE } from '../codify/block-render.js';
import { escapeText, inlineCode } from '../report/index.js';
import type { CommandItem } from './command-items.js';
import type { Target } from './parse-command.js';

type RuleItem = Pick<CommandItem, 'key' | 'path' | 'field' | 'manager'>;

/** Whether an existing rule already ignores the item (its object, its field, its manager). */
function coveredBy(rules: readonly IgnoreRule[]): (item: RuleItem) => boolean {
  const matchers = compileIgnoreRules(rules);
  return (item) => matchers.some((m) => m.matches(item.key, item, item.manager ? [item.manager] : []));
}

/** How many segments deep the command's field reaches (a pointer's or a printed field's); undefined for none. */
function fieldDepth(field: string | undefined): number | undefined {
  if (field === undefined) return undefined;
  if (field.startsWith('/')) return fromPointer(field).length;
  const parsed = parseFieldPath(field);
  return typeof parsed === 'string' ? undefined : parsed.length;
}

/**
 * A rule's path for an item, as driftback prints the field (list items by key, so the rule stays on its
 * container when the list is reordered), cut to the depth of the command's field: the command's
 * `containers[api]` or `/spec/template/spec/containers/0` becomes `spec.template.spec.containers[api]`.
 * A field that cannot be printed keeps its pointer.
 */
function rulePath(item: RuleItem, depth: number | undefined): string {
  const printed = parseFieldPath(item.field);
  if (typeof printed === 'string' || printed.length === 0) {
    const pointer = fromPointer(item.path);
    return depth === undefined ? item.path : toPointer(pointer.slice(0, depth));
  }
  return writeFieldPath(depth === undefined ? printed : printed.slice(0, depth));
}

function uniquePaths(items: readonly RuleItem[], field: string | undefined): string[] {
  const depth = fieldDepth(field);
  return [...new Set(items.map((item) => rulePath(item, depth)))];
}

/**
 * The rules that ignore the items' fields, scoped as the command was: with an object, that one object
 * (its kind, namespace and name); without one, every object of each kind the field was found on. The
 * paths are the fields as driftback prints them, as deep as the command's field (which covers what is
 * below it), whether it was given as a printed field or a JSON pointer.
 * Items that name a whole object, and items a rule in `existing` already ignores, give no rule.
 */
export function ignoreRulesFor(
  items: readonly RuleItem[],
  target: Target,
  reason: string,
  existing: readonly IgnoreRule[] = [],
): IgnoreRule[] {
  const covered = coveredBy(existing);
  const fields = items.filter((item) => item.path !== '' && !covered(item));
  const byScope = new Map<string, RuleItem[]>();
  for (const item of fields) {
    const { kind, namespace, name } = item.key;
    const scope = target.object ? `${kind}/${namespace}/${name}` : kind;
    byScope.set(scope, [...(byScope.get(scope) ?? []), item]);
  }
  return [...byScope.values()].map((group): IgnoreRule => {
    const { kind, namespace, name } = group[0].key;
    const paths = uniquePaths(group, target.field);
    if (!target.object) return { kinds: [kind], paths, reason };
    // Keys in the schema's order: a rule read back from the file is written the same way.
    return { kinds: [kind], names: [name], ...(namespace ? { namespaces: [namespace] } : {}), paths, reason };
  });
}

export type AddRulesResult = { ok: true; text: string } | { ok: false; reason: string };

/** The rules of a config text ([] for no file); a config that does not parse cannot be edited. */
export function configIgnoreRules(text: string | undefined): IgnoreRule[] | string {
  if (text === undefined) return [];
  const parsed = parseConfig(text);
  if (!parsed.ok)
    return `it does not pass the config check (${parsed.problems.map((p) => `${p.line !== undefined ? `line ${p.line}: ` : ''}${p.message}`).join('; ')})`;
  return parsed.config.drift.ignore;
}

/** Whether the text holds no YAML value at all (missing, empty, or only comments). */
function holdsNothing(text: string): boolean {
  return text.split('\n').every((line) => line.trim() === '' || line.trim().startsWith('#'));
}

/**
 * Whether the rules already in the file write their lists of scalars in flow (`kinds: [Deployment]`,
 * the docs' style), or in block style (`kinds:` then `- Deployment`): flow unless they all use block.
 */
export function writesFlowLists(text: string): boolean {
  const ignore = parseDocument(text).getIn(['drift', 'ignore']);
  if (!isSeq(ignore)) return true;
  let block = false;
  for (const rule of ignore.items) {
    if (!isMap(rule)) continue;
    for (const pair of rule.items) {
      const list = pair.value;
      if (!isSeq(list) || list.items.length === 0 || !list.items.every((item) => isScalar(item))) continue;
      if (list.flow) return true;
      block = true;
    }
  }
  return !block;
}

/** The file's text with `rules` appended to `drift.ignore`; the file is created when `text` is undefined. */
export function addIgnoreRules(text: string | undefined, rules: readonly IgnoreRule[]): AddRulesResult {
  const before = configIgnoreRules(text);
  if (typeof before === 'string') return { ok: false, reason: `.github/driftback.yml cannot be edited: ${before}` };
  let next = text ?? '';
  if (holdsNothing(next)) {
    const lines = renderCollection({ drift: { ignore: rules } }, 0, { ...DEFAULT_BLOCK_STYLE, flowScalarLists: true });
    next = `${next}${next === '' || next.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`;
  } else {
    const flowScalarLists = writesFlowLists(next);
    for (const [i, rule] of rules.entries()) {
      const segments = ['drift', 'ignore', { index: before.length + i }] as const;
      const edited = setValueAt(next, 0, segments, rule, { flowScalarLists });
      if (!edited.ok) return { ok: false, reason: `.github/driftback.yml cannot be edited: ${edited.reason}` };
      next = edited.text;
    }
  }
  const after = configIgnoreRules(next);
  if (typeof after === 'string')
    return { ok: false, reason: `the edited .github/driftback.yml would not be valid: ${after}` };
  if (!isDeepStrictEqual(after, [...before, ...rules]))
    return { ok: false, reason: 'the edited .github/driftback.yml would not read back with exactly these rules' };
  return { ok: true, text: next };
}

/** The rule's reason with where it was decided: who ran the command, on which pull request. */
export function ruleReason(reason: string | undefined, by: string, pullRequest: number): string {
  return `${reason ?? 'no reason given'} (${by}, /driftback ignore on #${pullRequest})`;
}

/** `Deployment/shop/api`, `Deployment objects` or `every object`: what a rule applies to. */
function ruleScope(rule: IgnoreRule): string {
  const kinds = rule.kinds?.join(', ') ?? 'every kind';
  if (!rule.names?.length) return `every ${kinds}`;
  return rule.names.map((name) => [kinds, rule.namespaces?.[0], name].filter(Boolean).join('/')).join(', ');
}

/**
 * The App's branch for config pull requests, under `pullRequests.branchPrefix`: one for the repository.
 * Its first segment starts with `_`, which no cluster name does (`clusterSchema`), so no drift branch
 * (`<prefix><cluster>` or `<prefix><cluster>/<namespace>`) can equal it or nest with it.
 */
export function configBranch(prefix: string): string {
  return `${prefix}_config/ignore`;
}

export function configPullRequestTitle(count: number): string {
  return `driftback: ${count === 1 ? 'one ignore rule' : `${count} ignore rules`} for .github/driftback.yml`;
}

/** The config pull request's body: every rule it adds (scope, fields, reason) and what merging does. */
export function configPullRequestBody(rules: readonly IgnoreRule[]): string {
  const lines = rules.map(
    (rule) =>
      `- ${inlineCode(ruleScope(rule))}: ${(rule.paths ?? []).map(inlineCode).join(', ') || 'every field'}. ${escapeText(rule.reason)}`,
  );
  return [
    `Adds ${rules.length === 1 ? 'one ignore rule' : `${rules.length} ignore rules`} to \`.github/driftback.yml\` ` +
      '(`drift.ignore`), asked for with `/driftback ignore` on drift pull requests:',
    '',
    ...lines,
    '',
    'Once this is merged, driftback stops comparing these fields, whatever their live value: the next drift check ' +
      "leaves them out of the cluster's drift pull request and counts them under the rule's reason. The plan " +
      'comment on this pull request lists what the new config changes.',
    '',
    'Another `/driftback ignore` adds its rule here. driftback never writes over a commit someone else pushes to ' +
      'this branch; edit the rules in review, or close this pull request to drop them.',
  ].join('\n');
}
