// Runs one krusty build through driftback's renderer and compares the result with kustomize's
// expected output: the same objects in the same order, equal field by field (map keys in any order,
// lists in order), or an error where kustomize refuses the build.
import { parseAllDocuments } from 'yaml';
import { renderManifests, type RenderOptions } from '../../src/core/manifests/index.js';
import { formatProblem } from '../../src/core/model/index.js';
import type { KrustyBuild, KrustyCase } from './krusty-cases.js';

export interface BuildOutcome {
  ok: boolean;
  /** What differs, for the failure message. */
  detail: string;
}

/** `extra`: options of the build beyond kustomize's defaults (helm enabled, for one). */
export function runKrustyBuild(build: KrustyBuild, extra: RenderOptions = {}): BuildOutcome {
  const result = renderManifests(build.files, build.root, { ...renderOptions(build), ...extra });
  const problems = result.errors.map(formatProblem);
  if (build.error) {
    if (problems.length > 0) return { ok: true, detail: '' };
    return {
      ok: false,
      detail: `kustomize refuses this build (${build.error.messages.join(' / ') || 'an error'}); driftback rendered ${result.objects.length} objects`,
    };
  }
  if (problems.length > 0) return { ok: false, detail: `driftback reported problems:\n  ${problems.join('\n  ')}` };
  const skipped = (result.notRendered ?? []).map((n) => `${n.file}:${n.line ?? ''} ${n.reason}`);
  if (skipped.length > 0) return { ok: false, detail: `driftback did not render parts:\n  ${skipped.join('\n  ')}` };
  if (build.expected === undefined) return { ok: true, detail: '' };
  const expected = parseAllDocuments(build.expected)
    .map((doc) => doc.toJS() as unknown)
    .filter((doc) => doc !== null && doc !== undefined);
  const actual = result.objects.map((o) => o.object as unknown);
  const differences: string[] = [];
  const count = Math.max(expected.length, actual.length);
  for (let i = 0; i < count; i++) {
    const where = `object ${i + 1} (${label(expected[i]) ?? '-'} / driftback: ${label(actual[i]) ?? '-'})`;
    if (i >= actual.length) differences.push(`${where}: missing`);
    else if (i >= expected.length) differences.push(`${where}: extra`);
    else
      compare(expected[i], actual[i], '', (path, message) => differences.push(`${where} ${path || '/'}: ${message}`));
  }
  return { ok: differences.length === 0, detail: differences.slice(0, 12).join('\n') };
}

/** kustomize build's output as the test asks for it: no default namespace, its order and load restrictions. */
function renderOptions(build: KrustyBuild): RenderOptions {
  const { order, loadRestrictions, managedByLabel } = build.options;
  return { defaultNamespace: null, order, loadRestrictions, managedByLabel };
}

function label(object: unknown): string | undefined {
  if (typeof object !== 'object' || object === null) return undefined;
  const o = object as { kind?: string; metadata?: { name?: string; namespace?: string } };
  return `${o.kind}/${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
}

function compare(
  expected: unknown,
  actual: unknown,
  path: string,
  report: (path: string, message: string) => void,
): void {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length)
      report(path, `list of ${expected.length} items, driftback has ${actual.length}: ${short(actual)}`);
    for (let i = 0; i < Math.min(expected.length, actual.length); i++)
      compare(expected[i], actual[i], `${path}/${i}`, report);
    return;
  }
  if (isMap(expected) && isMap(actual)) {
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key)) report(`${path}/${key}`, `missing (expected ${short(expected[key])})`);
      else compare(expected[key], actual[key], `${path}/${key}`, report);
    }
    for (const key of Object.keys(actual))
      if (!Object.hasOwn(expected, key)) report(`${path}/${key}`, `extra: ${short(actual[key])}`);
    return;
  }
  if (expected !== actual) report(path, `expected ${short(expected)}, driftback has ${short(actual)}`);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** The objects of a build as the Go checks of a test see them. */
export function inspectKrustyBuild(build: KrustyBuild): { kind: string; name: string; namespace: string }[] {
  return renderManifests(build.files, build.root, renderOptions(build)).objects.map((o) => ({
    kind: o.key.kind,
    name: o.key.name,
    namespace: o.key.namespace,
  }));
}

export function runKrustyCase(kase: KrustyCase): BuildOutcome {
  if (kase.goFailures.length > 0)
    return { ok: false, detail: `the test's checks failed: ${kase.goFailures.join('; ')}` };
  for (const [i, build] of kase.builds.entries()) {
    const outcome = runKrustyBuild(build);
    if (!outcome.ok)
      return {
        ok: false,
        detail: `build ${i + 1} of ${kase.builds.length} (${build.root || '.'}, line ${build.line}):\n${outcome.detail}`,
      };
  }
  return { ok: true, detail: '' };
}
