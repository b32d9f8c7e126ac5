// The drift pull request body: a one-line summary, the codified changes per resource (field, Git →
// live, who, when, file), new objects, what was only reported and why, and what merging means.
import {
  counted,
  displayKey,
  driftAmount,
  keyId,
  listed,
  showTime,
  type DiffResult,
  type FieldChange,
  type ResourceKey,
  type Risk,
  type SourceReport,
} from '../model/index.js';
import { GITHUB_BODY_LIMIT, MARKER_RESERVE } from './budget.js';
import { changeRow, reportedRow, whoWhen, type RowContext } from './change-rows.js';
import { renderDocument, type TemplateOverrides } from './template-engine.js';
import {
  isSuspensionSwitch,
  resumeStep,
  suspensionLabel,
  type Checklist,
  type EmergencyChange,
} from '../emergency/index.js';
import { renderEmergencySection, type SuspensionView } from './emergency.js';
import { allowedNote, riskyRows } from './risk-rows.js';
import { undoGroups } from './undo-rows.js';
import type { RiskyItem } from '../risk/index.js';
import type {
  CodifiedResourceModel,
  CodifiedRowModel,
  DriftPullRequestModel,
  NewObjectModel,
  PullRequestSourceModel,
  ReportedRowModel,
} from './models/index.js';

/** One codified change as codify returns it; `chartValue`: the chart value a change under a chart went to. */
type CodifiedView = {
  key: ResourceKey;
  change?: FieldChange;
  file: string;
  line?: number;
  kind: string;
  note?: string;
  chartValue?: { path: string[]; where: string; object?: string; source: string };
};

/** What codify produced: the shape codify returns, and the drift it codified (who created new objects). */
export interface DriftPullRequestView {
  cluster: string;
  codified: CodifiedView[];
  /** What was reported and not codified; entries with `risk` are held back for a person's decision. */
  reported: Array<{
    key: ResourceKey;
    change?: FieldChange;
    reason: string;
    manager?: string;
    time?: string;
    cause?: string;
    risk?: Risk[];
  }>;
  snapshot: { id: string; capturedAt: string };
  /** The drift codify was given: the creating manager and time of objects added as new manifests. */
  drift?: DiffResult;
  /** The GitOps sources the drift comes from, with their drift counts (none under kubectl). */
  sources?: readonly SourceReport[];
  /**
   * The suspensions the changes were made under (an emergency PR opens with their procedure);
   * `resumeWithin` is `emergency.resumeWithin`, from which the section gives the deadline.
   */
  emergency?: ReadonlyArray<{
    view: SuspensionView;
    changes: readonly EmergencyChange[];
    checklist: Checklist;
    resumeWithin?: string;
  }>;
  /** How many consecutive snapshots showed the codified changes (absent: they persisted past the gate). */
  seen?: { fewest: number; most: number; cap: number };
}

/**
 * An emergency PR's own section names the suspension, who and when, and the step that ends it: the
 * suspension's switch is not listed again among the reported changes.
 */
function withoutSuspensionSwitches(view: DriftPullRequestView): DriftPullRequestView {
  const suspensions = (view.emergency ?? []).map((section) => section.view.suspension);
  if (suspensions.length === 0) return view;
  const reported = view.reported.filter(
    (entry) => !suspensions.some((suspension) => isSuspensionSwitch(suspension, entry.key, entry.change?.path)),
  );
  return { ...view, reported };
}

/** The rendered GitOps sources with drift, as the body lists them. */
function sourceModels(sources: readonly SourceReport[]): PullRequestSourceModel[] {
  return sources.flatMap((source) =>
    source.controller === 'kubectl' || source.scope !== 'rendered' || !source.counts.drift
      ? []
      : [
          {
            name: source.name,
            controller: source.controller,
            ...(source.path !== undefined ? { path: source.path } : {}),
            drift: source.counts.drift,
            amount: driftAmount(source.counts.drift, source.counts.changes ?? source.counts.drift),
            ...(source.appliedRevision ? { appliedRevision: source.appliedRevision } : {}),
            suspended: source.suspended,
          },
        ],
  );
}

/** The directory every path shares (`clusters/prod-eu/`), '' when they share none. */
export function commonDirectory(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  let prefix = paths[0].slice(0, paths[0].lastIndexOf('/') + 1);
  for (const path of paths) {
    while (prefix && !path.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  }
  return prefix;
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

function headline(summary: DriftPullRequestModel['summary']): string {
  const { changes, objects, managers, namespaces, last, reported, risky } = summary;
  const parts = [driftAmount(objects, changes)];
  if (risky) parts.unshift(`${counted(risky, 'security-relevant change')} held for a person's decision;`);
  if (managers.length) {
    parts.push(`by ${managers.length <= 3 ? listed(managers) : `${managers.length} field managers`}`);
  }
  const named = namespaces.map((namespace) => namespace || 'cluster-scoped objects');
  if (named.length) parts.push(`in ${named.length <= 3 ? listed(named) : `${named.length} namespaces`}`);
  let line = parts.join(' ');
  if (last) line += `, last ${last}`;
  if (reported) line += `; ${reported} reported, not codified`;
  return line;
}

/** Held-back entries as risky items, with who made them and when. */
function heldItems(held: DriftPullRequestView['reported']): RiskyItem[] {
  return held.map((r) => ({
    key: r.key,
    ...(r.change ? { change: r.change } : {}),
    ...(r.manager ? { manager: r.manager } : {}),
    ...(r.time ? { time: r.time } : {}),
    risk: r.risk!,
  }));
}

/** An emergency switch a person decided to keep in Git. */
function switchKeptNote(decision: string | undefined): string | undefined {
  return decision === undefined ? undefined : `emergency switch kept (${decision})`;
}

/** What the pull request codifies, shown: changed fields per resource, new objects, and who and when. */
interface CodifiedModel {
  resources: CodifiedResourceModel[];
  created: NewObjectModel[];
  managers: Set<string>;
  times: string[];
}

/** The chart value a change under a chart went to, as its row names it (a values file relative to `filesUnder`). */
function chartValueOf(
  item: CodifiedView,
  relative: (file: string) => string,
): { chartValue?: CodifiedRowModel['chartValue'] } {
  const edit = item.chartValue;
  if (!edit) return {};
  const where = edit.where === item.file ? relative(edit.where) : edit.where;
  const object = edit.object ? { object: edit.object } : {};
  return { chartValue: { value: edit.path.join('.'), where, ...object, source: edit.source } };
}

function codifiedModel(view: DriftPullRequestView, max: number, filesUnder: string): CodifiedModel {
  const reference = view.snapshot.capturedAt || undefined;
  const relative = (file: string, line?: number): string => `${file.slice(filesUnder.length)}${line ? `:${line}` : ''}`;
  const createdBy = new Map((view.drift?.resources ?? []).map((r) => [keyId(r.key), r.createdBy]));
  const numbered = { count: 0 };
  const resources = new Map<string, CodifiedResourceModel>();
  const shown: CodifiedModel = { resources: [], created: [], managers: new Set(), times: [] };
  const saw = (manager?: string, time?: string): void => {
    if (manager) shown.managers.add(manager);
    if (time) shown.times.push(time);
  };
  for (const item of view.codified.slice(0, max)) {
    const resource = displayKey(item.key);
    if (!item.change) {
      const by = createdBy.get(keyId(item.key));
      const who = whoWhen(by?.manager, by?.time, reference);
      const note = item.note ? { note: item.note } : {};
      shown.created.push({ resource, ...who, file: relative(item.file, item.line), ...note });
      saw(by?.manager, by?.time);
      continue;
    }
    let block = resources.get(keyId(item.key));
    if (!block) resources.set(keyId(item.key), (block = { resource, file: '', rows: [], diffs: [] }));
    const context: RowContext = { reference, resource, diffs: block.diffs, numbered };
    const allowed = allowedNote(item.change.risk) ?? switchKeptNote(item.change.decision);
    const row = { ...changeRow(item.key, item.change, context), file: relative(item.file, item.line) };
    block.rows.push({ ...row, ...(allowed ? { allowed } : {}), ...chartValueOf(item, relative) });
    saw(item.change.manager, item.change.time);
  }
  for (const block of resources.values()) {
    block.file = mostCommon(block.rows.map((row) => row.file.replace(/:\d+$/, '')));
  }
  return { ...shown, resources: [...resources.values()] };
}

/** Each suspension the drift was made under: its procedure, with the command that resumes it. */
function emergencyModels(view: DriftPullRequestView): DriftPullRequestModel['emergency'] {
  return (view.emergency ?? []).map((section) => ({
    source: suspensionLabel(section.view.suspension),
    resume: resumeStep(section.view.suspension).command,
    checklist: { ...section.checklist },
    markdown: renderEmergencySection(section.view, section.changes, section.checklist, section.resumeWithin),
  }));
}

function model(view: DriftPullRequestView, max: number): DriftPullRequestModel {
  const reference = view.snapshot.capturedAt || undefined;
  const filesUnder = commonDirectory(view.codified.map((c) => c.file));
  const codified = codifiedModel(view, max, filesUnder);
  const held = view.reported.filter((r) => r.risk?.length);
  const others = view.reported.filter((r) => !r.risk?.length);
  const latest = codified.times.sort().at(-1);
  const summary: DriftPullRequestModel['summary'] = {
    changes: view.codified.length,
    objects: new Set(view.codified.map((c) => keyId(c.key))).size,
    managers: [...codified.managers].sort(),
    namespaces: [...new Set(view.codified.map((c) => c.key.namespace))].sort(),
    ...(latest ? { last: showTime(latest, reference) } : {}),
    reported: others.length,
    risky: held.length,
  };
  return {
    cluster: view.cluster,
    emergency: emergencyModels(view),
    headline: headline(summary),
    summary,
    ...seenModel(view.seen),
    sources: sourceModels(view.sources ?? []),
    snapshot: { ...view.snapshot, takenAt: view.snapshot.capturedAt ? showTime(view.snapshot.capturedAt) : '' },
    filesUnder,
    resources: codified.resources,
    created: codified.created,
    codifiedOmitted: Math.max(0, view.codified.length - max),
    reported: others.slice(0, max).map((r): ReportedRowModel => reportedRow(r, reference)),
    reportedOmitted: Math.max(0, others.length - max),
    risky: riskyRows(heldItems(held.slice(0, max)), reference),
    riskyOmitted: Math.max(0, held.length - max),
    undo: view.drift ? undoGroups(view.drift, reference, max) : [],
  };
}

/**
 * `seen in 1 snapshot` while what the PR codifies was seen in fewer snapshots than the gate asks for
 * (drift under a suspension, risky drift, a change about to be undone pass at once); nothing once it
 * persisted: the body then says so, and no longer changes with every snapshot.
 */
function seenModel(seen: DriftPullRequestView['seen']): Pick<DriftPullRequestModel, 'seenIn'> {
  if (!seen || seen.fewest >= seen.cap) return {};
  const most = seen.most >= seen.cap ? `${seen.most} or more` : `${seen.most}`;
  const range = seen.fewest === seen.most ? `${seen.fewest}` : `${seen.fewest} to ${most}`;
  return { seenIn: `seen in ${range} snapshot${range === '1' ? '' : 's'}` };
}

export function renderDriftPullRequest(
  view: DriftPullRequestView,
  options: { templates?: TemplateOverrides; limit?: number } = {},
): string {
  const limit = options.limit ?? GITHUB_BODY_LIMIT - MARKER_RESERVE;
  const shown = withoutSuspensionSwitches(view);
  const levels = [Infinity, 200, 20, 0].map((max) => () => model(shown, max));
  return renderDocument('drift-pull-request', levels, limit, options.templates);
}
