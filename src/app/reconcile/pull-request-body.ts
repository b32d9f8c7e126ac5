// Title and body of a drift PR. The marker's hash covers the body rendered without the snapshot
// line, so a new snapshot with the same drift leaves the PR untouched (no API call).
import { markerKey, markerComment, contentHash, type TemplateOverrides } from '../../core/report/index.js';
import { displayKey } from '../../core/model/index.js';
import type { DriftGroup } from './evaluate.js';
import type { EmergencySection } from './github-context.js';
import { renderInPlace, type Documents } from '../isolation/documents.js';

/**
 * What a reviewer reads in the pull request list: where, how many live changes, and the first object
 * (`driftback: prod — 4 live changes to Deployment/shop/cart and 1 more object`). A function of the
 * drift alone, so an unchanged drift leaves the title as it is.
 */
export function pullRequestTitle(cluster: string, group: Pick<DriftGroup, 'namespace' | 'codify'>): string {
  const { namespace } = group;
  const where = namespace === undefined ? cluster : `${cluster}/${namespace || 'cluster-scoped'}`;
  const codified = group.codify.codified;
  if (codified.length === 0) return `driftback: ${where} — live changes reported, none codified`;
  const objects = [...new Set(codified.map((entry) => displayKey(entry.key)))];
  const more = objects.length - 1;
  const rest = more > 0 ? ` and ${more} more object${more === 1 ? '' : 's'}` : '';
  const changes = `${codified.length} live change${codified.length === 1 ? '' : 's'}`;
  return `driftback: ${where} — ${changes} to ${objects[0]}${rest}`;
}

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
  return `${body}\n\n${markerComment(markerKeyFor(group.branch), contentHash(stable))}`;
}

export function commitMessage(
  cluster: string,
  group: DriftGroup,
  snapshot: { id: string; capturedAt: string },
): string {
  const count = group.codify.codified.length;
  return `${pullRequestTitle(cluster, group)}\n\n${count} change${count === 1 ? '' : 's'} from snapshot ${snapshot.id} (captured ${snapshot.capturedAt}).\n`;
}
