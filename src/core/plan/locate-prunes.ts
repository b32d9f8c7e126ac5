// A protected prune (a PVC whose manifest the PR deletes) has no line in head to point at, so the
// check run would carry no annotation for it. Point it at the manifest when head still has the file
// (the PR only unlisted it), otherwise at the `resources:` line of the kustomization that listed it.
import { keyId, type Plan, type PlanEntry, type PlanWarning } from '../model/index.js';

function lineOf(text: string, pattern: RegExp): number {
  const index = text.split('\n').findIndex((line) => pattern.test(line));
  return index === -1 ? 1 : index + 1;
}

function placeOf(entry: PlanEntry, headFiles: ReadonlyMap<string, string>): { file: string; line: number } | undefined {
  const source = entry.desired?.source;
  if (!source) return undefined;
  if (headFiles.has(source.file)) return { file: source.file, line: source.location.line };
  const kustomization = source.kustomizations.find((file) => headFiles.has(file));
  if (kustomization) return { file: kustomization, line: lineOf(headFiles.get(kustomization)!, /^\s*resources\s*:/) };
  return undefined;
}

/** The plan's prune-protected warnings, each pointed at the place in head that stopped declaring it. */
export function locateProtectedPrunes(plan: Plan, headFiles: ReadonlyMap<string, string>): PlanWarning[] {
  const prunes = new Map(plan.prune.map((entry) => [keyId(entry.id), entry]));
  return plan.warnings.map((warning) => {
    if (warning.code !== 'prune-protected' || warning.file || !warning.id) return warning;
    const entry = prunes.get(keyId(warning.id));
    const place = entry && placeOf(entry, headFiles);
    return place ? { ...warning, ...place } : warning;
  });
}
