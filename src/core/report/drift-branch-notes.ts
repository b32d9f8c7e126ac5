// Comments the App leaves on a drift pull request when it stops managing the branch: someone else
// committed on it, or the drift is gone and the pull request is closed.

/** Said once on the pull request of a drift branch with commits the App did not make. */
export function foreignCommitsComment(branch: string, commits: readonly string[]): string {
  return [
    `driftback found commits on \`${branch}\` that it did not make (${commits.join(', ')}).`,
    '',
    'It will not force-push this branch again, so that work is kept. To let driftback manage the drift of this cluster again, merge or close this pull request and delete the branch.',
  ].join('\n');
}

export interface DriftGone {
  cluster: string;
  defaultBranch: string;
  /** The default branch's commit the live state now matches. */
  baseSha: string;
  branch: string;
  snapshot: { id: string; capturedAt: string };
}

/** The closing comment of a drift pull request whose drift is gone. */
export function driftGoneComment(gone: DriftGone): string {
  return [
    `The live state of \`${gone.cluster}\` now matches \`${gone.defaultBranch}\` (${gone.baseSha.slice(0, 7)}) for everything this pull request codified: the drift was merged, reverted by the controller, or fixed by hand.`,
    '',
    `Closing it and deleting \`${gone.branch}\` (snapshot ${gone.snapshot.id}, captured ${gone.snapshot.capturedAt}).`,
  ].join('\n');
}
