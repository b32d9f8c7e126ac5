// Ignore rules (`drift.ignore`, like Argo CD ignoreDifferences): a matched change is moved aside with
// the rule's reason and counted, never dropped silently.
import type { IgnoreRule } from '../config/index.js';
import type { FieldChange, ResourceKey } from '../model/index.js';
import { fromPointer } from '../model/index.js';
import { compileConfigGlobs } from '../patterns/index.js';

/** A compiled rule: fast to test against many changes. */
export interface IgnoreMatcher {
  rule: IgnoreRule;
  appliesTo(key: ResourceKey): boolean;
  matches(key: ResourceKey, path: string, managers: readonly string[]): boolean;
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

export function compileIgnoreRules(rules: readonly IgnoreRule[]): IgnoreMatcher[] {
  return rules.map((rule) => {
    const kinds = globs(rule.kinds);
    const names = globs(rule.names);
    const namespaces = globs(rule.namespaces);
    const managers = globs(rule.managers);
    const appliesTo = (key: ResourceKey): boolean =>
      (!kinds || kinds(key.kind)) &&
      (!rule.groups?.length || rule.groups.some((g) => g === '*' || g === key.group)) &&
      (!names || names(key.name)) &&
      (!namespaces || namespaces(key.namespace));
    return {
      rule,
      appliesTo,
      matches: (key, path, owners) =>
        appliesTo(key) &&
        (!rule.paths?.length || rule.paths.some((p) => pathMatches(p, path))) &&
        (!managers || owners.some((m) => managers(m))),
    };
  });
}

/** The first rule that matches the change, or undefined. */
export function ignoreRuleFor(
  matchers: readonly IgnoreMatcher[],
  key: ResourceKey,
  change: FieldChange,
): IgnoreRule | undefined {
  const owners = change.managers ?? (change.manager ? [change.manager] : []);
  return matchers.find((m) => m.matches(key, change.path, owners))?.rule;
}
