// codifyDrift: writes the intentional live changes of a diff back into the repository's files,
// byte-exact, then checks the result by rendering and diffing again. An edit the check refuses is
// dropped and reported with the reason; the other edits of the run are written.
import { customLookupsOf } from '../k8s/index.js';
import { formatProblem, keyId, normalizeDir } from '../model/index.js';
import { selectIntents, type Intent } from './select.js';
import { applyIntent, type ApplyContext } from './apply.js';
import { Workspace } from './workspace.js';
import { isInside } from './new-resource.js';
import { kustomizationUsers } from './shared-bases.js';
import { asSelfCheck, changePrint, checkValueEdit, compareAfterCodify } from './self-check.js';
import type { ChartEvidence } from './chart-values.js';
import { holdersEditedTwice, settleHeldDrift, type HeldDrift } from './held-drift.js';
import { isolateFailures, type Verdict } from './isolate-failures.js';
import type { CodifiedChange, CodifyEngine, CodifyInput, CodifyResult, ReportedChange, SelfCheck } from './types.js';
import type { DiffResult, RenderResult } from '../model/index.js';

/** An intent that was written, with what it wrote. */
interface Applied {
  intent: Intent;
  entry: CodifiedChange;
}

interface Run {
  workspace: Workspace;
  applied: Applied[];
  reported: ReportedChange[];
  /** Notes on holders' own drift beside the edits written, and beside the edits refused. */
  held: HeldDrift[];
  heldRefused: HeldDrift[];
}

/** Carries out intents in order on a fresh copy of the files; an edit that creates a file outside `roots` is undone. */
function applyIntents(input: CodifyInput, root: string, intents: readonly Intent[], charts?: ChartEvidence): Run {
  const ctx: ApplyContext = {
    ...(charts ? { charts } : {}),
    workspace: new Workspace(input.files),
    config: input.config,
    root,
    cluster: input.cluster,
    users: kustomizationUsers(input.files),
    homes: input.newResourceHomes ?? {},
    readers: input.readers ?? [{ name: 'the cluster path', path: root, reading: { type: 'kubectl', recursive: true } }],
    codified: [],
    reported: [],
    held: [],
    customDefaults: customLookupsOf(input.live).customDefaults,
  };
  // Files codify creates stay under the cluster path; existing files it edits are ones the render read.
  const roots = [root, ...(input.sourceRoots ?? []).map(normalizeDir)];
  const applied: Applied[] = [];
  const [held, heldRefused]: HeldDrift[][] = [[], []];
  for (const intent of intents) {
    const mark = ctx.workspace.mark();
    applyIntent(ctx, intent);
    const entry = ctx.codified.pop();
    const notes = ctx.held.splice(0);
    // An edit that could not be made leaves nothing behind (a patch file without its registration).
    if (!entry) {
      ctx.workspace.restore(mark);
      heldRefused.push(...notes);
      continue;
    }
    const outside = [...ctx.workspace.edits().keys()].filter(
      (path) => !input.files.has(path) && !roots.some((dir) => isInside(path, dir)),
    );
    if (outside.length === 0) {
      applied.push({ intent, entry });
      held.push(...notes);
      continue;
    }
    ctx.workspace.restore(mark);
    const reason = `codify would create ${outside.join(', ')} outside the cluster path ${root || '(repository root)'}; nothing is written for it`;
    ctx.reported.push({ key: entry.key, ...(entry.change ? { change: entry.change } : {}), reason });
  }
  return { workspace: ctx.workspace, applied, reported: ctx.reported, held, heldRefused };
}

/**
 * The run again without the intents that write a holder's own drift when a chart value edit writes the
 * same field: the chart edit decides, and those drifts are settled beside it (held-drift.ts).
 */
function withoutDoubleEdits(input: CodifyInput, root: string, intents: readonly Intent[], charts: ChartEvidence) {
  const first = applyIntents(input, root, intents, charts);
  const twice = holdersEditedTwice(
    first.applied.map((applied) => applied.entry),
    [...first.held, ...first.heldRefused],
  );
  if (twice.length === 0) return { run: first, reported: [] };
  const dropped = new Set(first.applied.filter((applied) => twice.includes(applied.entry)).map((a) => a.intent));
  const run = applyIntents(
    input,
    root,
    intents.filter((intent) => !dropped.has(intent)),
    charts,
  );
  const reported = twice.map((entry) => ({
    key: entry.key,
    change: entry.change,
    reason: 'not written on its own: a chart value it holds is written for another change',
  }));
  return { run, reported };
}

function refused(entry: CodifiedChange, reason: string): ReportedChange {
  return { key: entry.key, ...(entry.change ? { change: entry.change } : {}), reason: `not written: ${reason}` };
}

/** The files before any edit, rendered and diffed against live once: what every check compares with. */
function baselineOf(engine: CodifyEngine, input: CodifyInput, root: string) {
  // The check compares two fresh diffs made the same way, so options and filtering applied to
  // input.result (persistence gate, scope) cannot make it fail.
  const scope = { complete: true, errors: input.result.unlisted.map((resource) => ({ resource })) };
  const options = { config: input.config, namespaces: input.cluster?.namespaces, scope };
  const renderOptions = { defaultNamespace: input.defaultNamespace };
  let before: { rendered: RenderResult; knownErrors: Set<string>; diff: DiffResult } | undefined;
  const baseline = () => {
    if (before) return before;
    const rendered = engine.render(input.files, root, renderOptions);
    const knownErrors = new Set(rendered.errors.map(formatProblem));
    return (before = { rendered, knownErrors, diff: engine.diff(rendered.objects, input.live, options) });
  };
  /** The files rendered and diffed, with the render errors they add. */
  const recheck = (files: ReadonlyMap<string, string>) => {
    const rendered = engine.render(files, root, renderOptions);
    const newErrors = rendered.errors.map(formatProblem).filter((problem) => !baseline().knownErrors.has(problem));
    return { diff: engine.diff(rendered.objects, input.live, options), newErrors };
  };
  return { baseline, recheck };
}

type Baseline = ReturnType<typeof baselineOf>;

/** The self-check of one run: its files rendered and diffed against live, compared with the diff before. */
function selfCheck(checks: Baseline): (run: Run) => Verdict {
  return (run) => {
    const after = checks.recheck(run.workspace.files());
    const entries = run.applied.map((applied) => applied.entry);
    return compareAfterCodify(checks.baseline().diff, after.diff, entries, after.newErrors);
  };
}

/** Renders candidate chart values against the files before any edit; each distinct edit is rendered once. */
function chartEvidence(checks: Baseline, input: CodifyInput, intents: readonly Intent[]): ChartEvidence {
  const codified = new Set(intents.flatMap((i) => (i.type === 'set' ? [changePrint(i.resource.key, i.change)] : [])));
  const seen = new Map<string, SelfCheck>();
  return {
    files: input.files,
    declared: (key) => checks.baseline().rendered.objects.find((desired) => keyId(desired.key) === keyId(key)),
    live: (key) => checks.baseline().diff.resources.find((resource) => keyId(resource.key) === keyId(key))?.live,
    check: (files, key, change, holder) => {
      const target = changePrint(key, change);
      const edits = [...files].filter(([path, text]) => input.files.get(path) !== text);
      const id = JSON.stringify([target, edits, holder ?? null]);
      const known = seen.get(id);
      if (known) return known;
      const after = checks.recheck(files);
      const verdict: SelfCheck =
        after.newErrors.length > 0
          ? { ok: false, reason: `the edited files do not render: ${after.newErrors.slice(0, 2).join('; ')}` }
          : checkValueEdit(checks.baseline().diff, after.diff, target, codified, holder);
      seen.set(id, verdict);
      return verdict;
    },
  };
}

export function codifyWith(engine: CodifyEngine, input: CodifyInput): CodifyResult {
  const root = normalizeDir(input.root);
  const selection = selectIntents(input.result.resources, input.config, input.cluster?.namespaces, input.result.owned);
  const checks = baselineOf(engine, input, root);
  const charts = chartEvidence(checks, input, selection.intents);
  const { run: first, reported: twice } = withoutDoubleEdits(input, root, selection.intents, charts);
  const reported = [...selection.reported, ...twice, ...first.reported];
  const done = (run: Run): CodifyResult => {
    // Edits refused are refused in the first run (later runs only retry written ones).
    const held = [...first.heldRefused, ...run.held];
    const codified = run.applied.map((applied) => applied.entry);
    return { edits: run.workspace.edits(), ...settleHeldDrift(codified, reported, held), check: { ok: true } };
  };
  if (first.applied.length === 0) return done(first);
  const check = selfCheck(checks);
  const verdict = check(first);
  if (verdict.ok) return done(first);
  // Which edits are at fault: each subset is written afresh from the original files and checked.
  const runs = new Map<string, Run>();
  const idOf = (subset: readonly Applied[]): string => subset.map((applied) => first.applied.indexOf(applied)).join();
  const isolated = isolateFailures(
    first.applied,
    verdict,
    (applied) => keyId(applied.entry.key),
    (subset) => {
      const run = applyIntents(
        input,
        root,
        subset.map((applied) => applied.intent),
        charts,
      );
      runs.set(idOf(subset), run);
      return check(run);
    },
  );
  reported.push(...isolated.dropped.map(({ item, reason }) => refused(item.entry, reason)));
  const kept = runs.get(idOf(isolated.kept));
  if (kept && isolated.verdict.ok && isolated.kept.length > 0) return done(kept);
  // Not one edit passed: nothing is written, and the check says why.
  const settled = settleHeldDrift([], reported, first.heldRefused);
  return { edits: new Map(), codified: [], reported: settled.reported, check: asSelfCheck(verdict) };
}
