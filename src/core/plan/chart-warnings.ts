// Hand changes on a Helm release's chart output: the plan of a commit that declares the release warns
// that people changed what the chart renders (who and when), that the next upgrade undoes it, and where
// the change belongs instead (the release's values). Git never holds chart output, so nothing else does.
import type { Config } from '../config/index.js';
import { keyOf, showTime, type DesiredObject, type KubeObject, type PlanWarning } from '../model/index.js';
import { fieldPath } from '../k8s/index.js';
import { handChangesOn, helmReason, helmReleaseOf, helmRemedy, indexHelm } from '../ownership/index.js';
import { sourceOf } from './source-line.js';

const HELM_RELEASE_GROUP = 'helm.toolkit.fluxcd.io';

/** One warning per field a person changed on the chart output of a HelmRelease that head declares. */
export function chartHandChangeWarnings(
  head: Iterable<DesiredObject>,
  live: Iterable<KubeObject>,
  config: Config,
): PlanWarning[] {
  const releases = new Map<string, DesiredObject>();
  for (const desired of head) {
    if (desired.key.group === HELM_RELEASE_GROUP && desired.key.kind === 'HelmRelease') {
      releases.set(`${desired.key.namespace}/${desired.key.name}`, desired);
    }
  }
  if (releases.size === 0) return [];
  const objects = [...live];
  const helm = indexHelm(objects);
  const warnings: PlanWarning[] = [];
  for (const object of objects) {
    const release = helmReleaseOf(object, helm)?.name;
    const declared = release ? releases.get(release) : undefined;
    if (!release || !declared) continue;
    const id = keyOf(object);
    const changes = handChangesOn(object, config, (path) => ({ code: 'helm', reason: helmReason(release, path) }));
    for (const change of changes) {
      const when = change.time ? ` at ${showTime(change.time)}` : '';
      const place = sourceOf(declared, '/spec/values');
      warnings.push({
        code: 'chart-hand-change',
        id,
        path: change.path,
        ...(place ? { file: place.file, ...(place.line ? { line: place.line } : {}) } : {}),
        message:
          `\`${fieldPath(change.segments, id)}\` was changed by hand (${change.manager}${when}) on chart output ` +
          `of Helm release ${release}, so the next upgrade undoes it: ${helmRemedy(change.path)}.`,
      });
    }
  }
  return warnings;
}
