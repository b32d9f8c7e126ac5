// The emergency switch issue as data. A switch flipped by hand is held for a person's decision; when
// the cluster has no other drift there is no drift PR to decide on, so one issue per cluster lists the
// switches and takes `/driftback allow` in its comments. It is opened when a switch waits on a drift
// group that writes nothing, rewritten while any switch it lists is there (waiting, or kept in Git by
// a decision whose drift PR is not merged yet), and closed with a comment once none is: turned back
// to Git's value by hand, or the decision's PR merged.
import { fingerprintChange } from '../classify/index.js';
import type { CodifiedChange, ReportedChange } from '../codify/index.js';
import { fieldPath, flippedSwitchOf } from '../k8s/index.js';
import {
  displayKey,
  fromPointer,
  getAt,
  keyId,
  type DiffResult,
  type FieldChange,
  type ResourceDiff,
  type ResourceKey,
} from '../model/index.js';
import type { DriftGroup } from '../pipeline/index.js';
import { inlineCode, type SwitchIssueEntry, type SwitchIssueView } from '../report/index.js';

/** What the App recorded of the cluster's switch issue: its number, its text's hash, and the switches it listed. */
export interface SwitchIssueRecord {
  issue: number;
  hash: string;
  switches: Array<{ key: ResourceKey; path: string; field: string; live?: unknown; pullRequest?: number }>;
}

/** A switch as the decision reads it: the issue's entry, its pointer and fingerprint, and whether a drift PR writes anything on its branch. */
export interface SwitchSeen extends SwitchIssueEntry {
  path: string;
  fingerprint: string;
  /** Its group writes files: there is a drift PR to decide on. */
  withPullRequest: boolean;
}

export type SwitchIssueAction =
  | { kind: 'switch-issue.write'; key: string; issue?: number; view: SwitchIssueView; switches: SwitchSeen[] }
  | { kind: 'switch-issue.close'; issue: number; comment: string };

/** The marker key of a cluster's switch issue. */
export function switchIssueKey(cluster: string): string {
  return `switch/${cluster}`;
}

function seen(
  group: Pick<DriftGroup, 'branch' | 'codify'>,
  resource: ResourceDiff | undefined,
  change: FieldChange,
  branches: Readonly<Record<string, { pullRequest?: number }>>,
): SwitchSeen | undefined {
  if (!resource?.live || !resource.desired) return undefined;
  const flipped = flippedSwitchOf(change, resource.key, resource.live);
  if (!flipped) return undefined;
  const pullRequest = branches[group.branch]?.pullRequest;
  return {
    key: resource.key,
    field: fieldPath(change.segments.length ? change.segments : change.path, resource.key),
    path: change.path,
    fingerprint: fingerprintChange(resource.key, change),
    live: change.live,
    ...(change.desired !== undefined ? { desired: change.desired } : {}),
    ...flipped,
    ...(change.manager ? { manager: change.manager } : {}),
    ...(change.time ? { time: change.time } : {}),
    file: resource.desired.source.file,
    ...(change.decision
      ? {
          decided: {
            text: change.decision,
            branch: group.branch,
            ...(pullRequest !== undefined ? { pullRequest } : {}),
          },
        }
      : {}),
    withPullRequest: group.codify.edits.size > 0,
  };
}

/** Every switch the cluster's drift groups hold back for a decision or codify by one. */
export function switchesSeen(
  groups: ReadonlyArray<Pick<DriftGroup, 'branch' | 'result' | 'codify'>>,
  branches: Readonly<Record<string, { pullRequest?: number }>>,
): SwitchSeen[] {
  return groups.flatMap((group) => {
    const resources = new Map(group.result.resources.map((resource) => [keyId(resource.key), resource]));
    const entries: Array<CodifiedChange | ReportedChange> = [
      ...group.codify.reported.filter((entry) => entry.change?.reported?.code === 'emergency-switch'),
      ...group.codify.codified.filter((entry) => entry.change?.decision !== undefined),
    ];
    return entries.flatMap((entry) => {
      const found = entry.change && seen(group, resources.get(keyId(entry.key)), entry.change, branches);
      return found ? [found] : [];
    });
  });
}

/** Why a switch the issue listed is gone: Git now holds its value (the decision merged), or it is back to Git's. */
function settled(record: SwitchIssueRecord['switches'][number], compared: DiffResult): string {
  const resource = compared.resources.find((entry) => keyId(entry.key) === keyId(record.key));
  const inGit = resource?.desired ? getAt(resource.desired.object, fromPointer(record.path)) : undefined;
  const what = `${inlineCode(displayKey(record.key))} ${inlineCode(record.field)}`;
  if (record.live !== undefined && JSON.stringify(inGit) === JSON.stringify(record.live))
    return `- ${what}: Git now keeps it${record.pullRequest !== undefined ? ` (#${record.pullRequest} merged)` : ''}.`;
  if (!resource?.live) return `- ${what}: the object is no longer in the cluster.`;
  return `- ${what}: back to Git's value in the cluster.`;
}

/** The switch issue's write or close for this reconcile, or nothing. */
export function decideSwitchIssue(input: {
  cluster: string;
  groups: ReadonlyArray<Pick<DriftGroup, 'branch' | 'result' | 'codify'>>;
  compared: DiffResult;
  branches: Readonly<Record<string, { pullRequest?: number }>>;
  previous?: SwitchIssueRecord;
}): SwitchIssueAction[] {
  const { cluster, previous } = input;
  const switches = switchesSeen(input.groups, input.branches);
  const waiting = switches.some((entry) => !entry.decided && !entry.withPullRequest);
  if (switches.length > 0 && (previous || waiting)) {
    const view: SwitchIssueView = {
      cluster,
      switches: switches.map(({ path: _p, fingerprint: _f, withPullRequest: _w, ...entry }) => entry),
    };
    return [
      {
        kind: 'switch-issue.write',
        key: switchIssueKey(cluster),
        ...(previous ? { issue: previous.issue } : {}),
        view,
        switches,
      },
    ];
  }
  if (!previous) return [];
  const lines = previous.switches.map((record) => settled(record, input.compared));
  const comment = [
    `No emergency switch on ${inlineCode(cluster)} waits for a decision any more:`,
    ...lines,
    '',
    'Closing.',
  ].join('\n');
  return [{ kind: 'switch-issue.close', issue: previous.issue, comment }];
}
