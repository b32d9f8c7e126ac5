// When the self-check fails for a run's edits together, finds the edits at fault and keeps the rest:
// one refused edit never costs the others. The edits on the objects the failed check names are
// suspects; the others are checked together without them, then each suspect is checked on top, one
// at a time. A failure that names no object makes every edit a suspect.

/** A check of a set of edits: passed, or failed with a reason and the objects (ids) involved. */
export type Verdict = { ok: true } | { ok: false; reason: string; involved: readonly string[] };

/** At most this many edits are checked one at a time (each check renders the cluster again). */
export const MAX_SOLO_CHECKS = 20;

export interface Isolated<T> {
  kept: T[];
  dropped: Array<{ item: T; reason: string }>;
  /** The verdict of the kept edits together (ok when `kept` passed or is empty). */
  verdict: Verdict;
}

/**
 * The largest set of `items` (in their order) that passes `check`, found from `failed`, the failing
 * verdict of all of them; `keyOf` is the object an item edits.
 */
export function isolateFailures<T>(
  items: readonly T[],
  failed: Extract<Verdict, { ok: false }>,
  keyOf: (item: T) => string,
  check: (subset: readonly T[]) => Verdict,
): Isolated<T> {
  const involved = new Set(failed.involved);
  let suspects = items.filter((item) => involved.has(keyOf(item)));
  let kept = items.filter((item) => !involved.has(keyOf(item)));
  let verdict: Verdict = { ok: true };
  if (suspects.length === 0 || kept.length === 0) [suspects, kept] = [[...items], []];
  else {
    verdict = check(kept);
    if (!verdict.ok) [suspects, kept, verdict] = [[...items], [], { ok: true }];
  }
  const dropped: Array<{ item: T; reason: string }> = [];
  suspects.forEach((suspect, index) => {
    if (index >= MAX_SOLO_CHECKS) {
      const reason = `the self-check failed for this run's edits together, and only the first ${MAX_SOLO_CHECKS} of them are checked one at a time; it is checked again once fewer edits fail`;
      dropped.push({ item: suspect, reason });
      return;
    }
    const trial = items.filter((item) => item === suspect || kept.includes(item));
    const result = check(trial);
    if (result.ok) [kept, verdict] = [trial, result];
    else dropped.push({ item: suspect, reason: result.reason });
  });
  return { kept, dropped, verdict };
}
