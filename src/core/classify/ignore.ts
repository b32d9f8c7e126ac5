// Ignore rules (`drift.ignore`, like Argo CD ignoreDifferences): a matched change is moved aside with
// the rule's reason and counted, never dropped silently.
import type { IgnoreRule } from '../config/index.js';
import type { FieldChange, PathSegment, ResourceKey } from '../model/index.js';
import { fromPointer } from '../model/index.js';
import { fieldPath, fieldPathCovers, parseFieldPath, type FieldPathSegment } from '../k8s/index.js';
import { compileConfigGlobs } from '../patterns/index.js';

/**
 * The field a rule is tested against: its JSON pointer, and what names its list items by key: the
 * structured segments, the printed field, or the object the path points into (desired, else live).
 * A bare pointer reads its digits as positions.
 */
export type FieldAt = string | { path: string; segments?: readonly PathSegment[]; field?: string; object?: unknown };

/** A compiled rule: fast to test against many changes. */
export interface IgnoreMatcher {
  rule: IgnoreRule;
  appliesTo(key: ResourceKey): boolean;
  matches(key: ResourceKey, at: FieldAt, managers: readonly string[]): boolean;
}

/** Globs match in linear time (RE2); one the config check refused matches nothing. */
function globs(patterns: readonly string[] | undefined): ((value: string) => boolean) | undefined {
  if (!patterns?.length) return undefined;
  const { matches } = compileConfigGlobs(patterns);
  return (value) => matches.test(value);
}

/** `/spec/*\/image` matches `/spec/x/image` and everything below it. */
export function pathMatches(rulePath: string, path: string): boolean {
  const rule = fromPointer(rulePath);
  const segments = fromPointer(path);
  if (segments.length < rule.length) return false;
  return rule.every((segment, i) => segment === '*' || segment === segments[i]);
}

/** The field as driftback prints it, its list items named by key; [] for a field that cannot be printed. */
function printedField(key: ResourceKey, at: FieldAt): readonly FieldPathSegment[] {
  const field =
    typeof at === 'string'
      ? fieldPath(at, key)
      : (at.field ?? fieldPath(at.segments?.length ? at.segments : at.path, { ...key, object: at.object }));
  const parsed = parseFieldPath(field);
  return typeof parsed === 'string' ? [] : parsed;
}

/** A rule's paths as one test: pointers against the pointer, printed fields against the printed field. */
function pathsTest(paths: readonly string[] | undefined): (key: ResourceKey, at: FieldAt) => boolean {
  if (!paths?.length) return () => true;
  const pointers = paths.filter((p) => p.startsWith('/'));
  const fields = paths.flatMap((p) => {
    const parsed = p.startsWith('/') ? '' : parseFieldPath(p);
    return typeof parsed === 'string' ? [] : [parsed];
  });
  return (key, at) => {
    const pointer = typeof at === 'string' ? at : at.path;
    if (pointers.some((p) => pathMatches(p, pointer))) return true;
    if (fields.length === 0) return false;
    const printed = printedField(key, at);
    return printed.length > 0 && fields.some((rule) => fieldPathCovers(rule, printed));
  };
}

export function compileIgnoreRules(rules: readonly IgnoreRule[]): IgnoreMatcher[] {
  return rules.map((rule) => {
    const kinds = globs(rule.kinds);
    const names = globs(rule.names);
    const namespaces = globs(rule.namespaces);
    const managers = globs(rule.managers);
    const paths = pathsTest(rule.paths);
    const appliesTo = (key: ResourceKey): boolean =>
      (!kinds || kinds(key.kind)) &&
      (!rule.groups?.length || rule.groups.some((g) => g === '*' || g === key.group)) &&
      (!names || names(key.name)) &&
      (!namespaces || namespaces(key.namespace));
    return {
      rule,
      appliesTo,
      matches: (key, at, owners) => appliesTo(key) && paths(key, at) && (!managers || owners.some((m) => managers(m))),
    };
  });
}

/** The first rule that matches the change, or undefined. */
export function ignoreRuleFor(
  matchers: readonly IgnoreMatcher[],
  key: ResourceKey,
  change: FieldChange,
  object?: unknown,
): IgnoreRule | undefined {
  const owners = change.managers ?? (change.manager ? [change.manager] : []);
  const at = { path: change.path, segments: change.segments, object };
  return matchers.find((m) => m.matches(key, at, owners))?.rule;
}
