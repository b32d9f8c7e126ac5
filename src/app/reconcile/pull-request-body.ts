// Title and body of a drift PR. The marker's hash covers the body rendered without the snapshot
// line, so a new snapshot with the same drift leaves the PR untouched (no API call).
import {
  renderDriftPullRequest,
  renderEmergencySection,
  markerKey,
  markerComment,
  contentHash,
  type TemplateOverrides,
} from '../../core/report/index.js';
import type { DriftGroup } from './evaluate.js';
import type { EmergencySection } from './github-context.js';

export function pullRequestTitle(cluster: string, namespace: string | undefined): string {
  const where = namespace === undefined ? cluster : `${cluster}/${namespace || 'cluster-scoped'}`;
  return `driftback: codify live changes in ${where}`;
}

export function markerKeyFor(branch: string): string {
  return markerKey(`drift/${branch}`);
}

export function pullRequestBody(
  cluster: string,
  group: DriftGroup,
  snapshot: { id: string; capturedAt: string },
  templates?: TemplateOverrides,
  emergency: readonly EmergencySection[] = [],
): string {
  const { codified, reported } = group.codify;
  const view = { cluster, codified, reported, drift: group.result, sources: group.sources };
  // The applied revision moves with every commit the controller applies: it is left out of the hash.
  const sources = group.sources.map(({ appliedRevision: _revision, ...source }) => source);
  // An emergency PR opens with the procedure: it is what the reader must do next.
  const opening = emergency.map((s) => `${renderEmergencySection(s.view, s.changes, s.checklist)}\n\n`).join('');
  const body = opening + renderDriftPullRequest({ ...view, snapshot }, { templates });
  const stable =
    opening + renderDriftPullRequest({ ...view, sources, snapshot: { id: '', capturedAt: '' } }, { templates });
  return `${body}\n\n${markerComment(markerKeyFor(group.branch), contentHash(stable))}`;
}

export function commitMessage(
  cluster: string,
  group: DriftGroup,
  snapshot: { id: string; capturedAt: string },
): string {
  const count = group.codify.codified.length;
  return `${pullRequestTitle(cluster, group.namespace)}\n\n${count} change${count === 1 ? '' : 's'} from snapshot ${snapshot.id} (captured ${snapshot.capturedAt}).\n`;
}
