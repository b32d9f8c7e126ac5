// Title and body of a drift PR. The marker's hash covers the body rendered without the snapshot
// line, so a new snapshot with the same drift leaves the PR untouched (no API call).
import { markerKey, markerComment, contentHash, type TemplateOverrides } from '../../core/report/index.js';
import { pullRequestTitle } from '../../core/decide/index.js';
import { decisionsSection, type ListedDecision } from '../../core/commands/index.js';
import type { DriftGroup } from './evaluate.js';
import type { EmergencySection } from './github-context.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';

export function markerKeyFor(branch: string): string {
  return markerKey(`drift/${branch}`);
}

export async function pullRequestBody(
  cluster: string,
  group: DriftGroup,
  snapshot: { id: string; capturedAt: string },
  templates?: TemplateOverrides,
  emergency: readonly EmergencySection[] = [],
  documents: Documents = renderInPlace,
  decisions: readonly ListedDecision[] = [],
): Promise<string> {
  // An emergency PR opens with the procedure (the template's `emergency` partial): what the reader must do next.
  const view = {
    cluster,
    codified: group.codify.codified,
    reported: group.codify.reported,
    drift: group.result,
    emergency,
    sources: group.sources,
    ...(group.seen ? { seen: group.seen } : {}),
  };
  // The applied revision moves with every commit the controller applies: it is left out of the hash.
  const sources = group.sources.map(({ appliedRevision: _revision, ...source }) => source);
  const body = await documents('renderDriftPullRequest', { ...view, snapshot }, { templates });
  const stable = await documents(
    'renderDriftPullRequest',
    { ...view, sources, snapshot: { id: '', capturedAt: '' } },
    { templates },
  );
  // Decisions made with comment commands follow the body, and count in its hash: a new one updates the PR.
  const decided = decisions.length ? `\n\n${decisionsSection(decisions)}` : '';
  return `${body}${decided}\n\n${markerComment(markerKeyFor(group.branch), contentHash(stable + decided))}`;
}

export function commitMessage(
  cluster: string,
  group: DriftGroup,
  snapshot: { id: string; capturedAt: string },
): string {
  const count = group.codify.codified.length;
  return `${pullRequestTitle(cluster, group)}\n\n${count} change${count === 1 ? '' : 's'} from snapshot ${snapshot.id} (captured ${snapshot.capturedAt}).\n`;
}
