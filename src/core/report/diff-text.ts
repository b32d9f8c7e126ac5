// `--format text`: security-relevant drift first, then a unified diff per resource that is not in
// sync, like `kubectl diff`, with the manager and time next to each drifted field, then one summary line.
import { structuredPatch } from 'diff';
import { riskyDrift } from '../risk/index.js';
import { fieldPath, maskSecretValues } from '../k8s/index.js';
import { skippedLine, type SkippedObject } from '../k8s/object-names.js';
import {
  displayKey,
  showTime,
  suspensionNoticeLines,
  type DiffResult,
  type FieldChange,
  type ResourceDiff,
  type Risk,
  type SuspensionNotice,
} from '../model/index.js';
import { describeOwner } from '../ownership/index.js';
import { undoLines, undoneLines, type UndoneRow } from './undo-rows.js';
import { plainPalette, type Palette } from './palette.js';
import { desiredYaml, extraYaml, liveYaml } from './resource-yaml.js';

const SYMBOL: Record<ResourceDiff['status'], string> = { 'in-sync': '=', modified: '~', missing: '-', extra: '+' };

/** Both sides, Secret values masked as in the JSON and markdown output (changes are masked already). */
function sidesOf(resource: ResourceDiff): [desired: string, live: string] {
  if (resource.status === 'extra' && resource.live) return ['', extraYaml(maskSecretValues(resource.live))];
  if (!resource.desired) return ['', ''];
  const object = maskSecretValues(resource.desired.object);
  const desired = desiredYaml(object, resource.changes);
  if (resource.status === 'missing') return [desired, ''];
  return [desired, liveYaml(object, resource.changes)];
}

function heading(resource: ResourceDiff): string {
  const parts = [`${SYMBOL[resource.status]} ${displayKey(resource.key)}`, resource.status];
  if (resource.status === 'missing') parts.push('declared in Git, not in the cluster');
  if (resource.status === 'extra') {
    parts.push('in the cluster, not in Git');
    if (resource.createdBy)
      parts.push(
        `created by ${resource.createdBy.manager}${resource.createdBy.time ? ' at ' + showTime(resource.createdBy.time) : ''} (${resource.createdBy.cause})`,
      );
  }
  if (resource.health)
    parts.push(
      `health: ${resource.health.status}${resource.health.message ? ' (' + resource.health.message + ')' : ''}`,
    );
  return parts.join('  ');
}

function patchLines(resource: ResourceDiff, palette: Palette): string[] {
  const [desired, live] = sidesOf(resource);
  const source = resource.desired
    ? `${resource.desired.source.file}:${resource.desired.source.location.line}`
    : '/dev/null';
  const patch = structuredPatch(source, 'live', desired, live, undefined, undefined, { context: 3 });
  if (patch.hunks.length === 0) return [];
  const lines = [
    palette.removed(`--- desired ${source}`),
    palette.added(`+++ live ${resource.live ? 'cluster' : '/dev/null'}`),
  ];
  for (const hunk of patch.hunks) {
    // As GNU diff: an empty side starts at line 0.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    lines.push(palette.hunk(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`));
    for (const line of hunk.lines) {
      if (line.startsWith('+')) lines.push(palette.added(line));
      else if (line.startsWith('-')) lines.push(palette.removed(line));
      else if (!line.startsWith('\\')) lines.push(line);
    }
  }
  return lines;
}

function riskLine(entry: Risk): string {
  return `${entry.code}: ${entry.why}`;
}

function fieldOf(resource: Pick<ResourceDiff, 'key'>, change: FieldChange): string {
  return fieldPath(change.segments.length ? change.segments : change.path, resource.key);
}

function codesOf(risk: readonly Risk[]): string {
  return risk.map((entry) => (entry.allowed ? `${entry.code} (allowed: ${entry.allowed})` : entry.code)).join(', ');
}

/** The risk codes of a resource and its changes, under its diff (the reasons are in the block above). */
function riskNotes(resource: ResourceDiff, palette: Palette): string[] {
  const lines = resource.risk?.length ? [palette.heading(`  risk: ${codesOf(resource.risk)}`)] : [];
  for (const change of resource.changes)
    if (change.risk?.length)
      lines.push(palette.heading(`  risk: ${fieldOf(resource, change)}: ${codesOf(change.risk)}`));
  return lines;
}

/** The block a person reads first: risky drift waiting for a decision, with who and when. */
function riskyBlock(result: DiffResult): string[] {
  const items = riskyDrift(result);
  if (items.length === 0) return [];
  const lines = ["Security-relevant drift: needs a person's decision (driftback never codifies it unasked):"];
  for (const item of items) {
    const field = item.change ? ` ${fieldOf(item, item.change)}` : '';
    lines.push(`  ! ${displayKey(item.key)}${field}${who(item)}`);
    for (const entry of item.risk) if (!entry.allowed) lines.push(`      ${riskLine(entry)}`);
  }
  return [lines.join('\n')];
}

function notes(resource: ResourceDiff, palette: Palette): string[] {
  const lines: string[] = riskNotes(resource, palette);
  for (const conflict of resource.conflicts) {
    lines.push(
      `  conflict: ${fieldPath(conflict.segments?.length ? conflict.segments : conflict.path, resource.key)} is declared in Git and owned by ${conflict.manager}: ${conflict.fix}`,
    );
  }
  for (const change of resource.ignored) {
    lines.push(
      palette.dim(`  ignored: ${fieldOf(resource, change)}${change.ignored ? ` (${change.ignored.reason})` : ''}`),
    );
  }
  for (const change of resource.reported ?? []) {
    lines.push(
      `  reported, not codified: ${fieldOf(resource, change)}${who(change)}: ${change.reported?.reason ?? ''}`,
    );
  }
  for (const change of [...resource.changes, ...(resource.reported ?? [])])
    if (change.next?.what === 'keep') lines.push(`  next: ${fieldOf(resource, change)}: ${change.next.why}`);
  return lines;
}

/** ` (kubectl-scale at 2026-12-02 03:02 UTC, human)`; who is not recorded: ` (unknown manager)`. */
function who(by: { manager?: string; time?: string; cause?: string }): string {
  const cause = by.cause && by.cause !== 'unknown' ? `, ${by.cause}` : '';
  if (!by.manager) return ` (unknown manager${cause})`;
  return ` (${by.manager}${by.time ? ' at ' + showTime(by.time) : ''}${cause})`;
}

/** Objects Git lacks that are not extra, counted by owner; and what is reported about them. */
function ownerLines(result: DiffResult): string[] {
  const owned = result.owned ?? [];
  if (owned.length === 0) return [];
  const counts = new Map<string, number>();
  for (const object of owned) {
    const owner = describeOwner(object.owner);
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  const lines = ['Not in Git, not extra:', ...[...counts].map(([owner, n]) => `  ${n} ${owner}`)];
  for (const object of owned) {
    if (object.reported) {
      const cause = !object.owner.manager ? 'unknown' : object.owner.class === 'person' ? 'human' : 'controller';
      const by = who({ manager: object.owner.manager, time: object.owner.time, cause });
      lines.push(`  reported, not codified: ${displayKey(object.key)}${by}: ${object.reported.reason}`);
    }
    for (const change of object.changes ?? []) {
      lines.push(
        `  reported, not codified: ${displayKey(object.key)} ${fieldOf(object, change)}${who(change)}: ` +
          (change.reported?.reason ?? ''),
      );
    }
  }
  return [lines.join('\n')];
}

export function diffSummaryLine(result: DiffResult): string {
  const { inSync, modified, missing, extra, ignored, conflicts } = result.summary;
  const parts = [
    `${inSync} in sync`,
    `${modified} modified`,
    `${missing} missing`,
    `${extra} extra`,
    `${ignored} ignored`,
  ];
  if (conflicts) parts.push(`${conflicts} conflict${conflicts === 1 ? '' : 's'}`);
  const unlisted =
    result.unlisted.length > 0
      ? `; not listed by the snapshot, so nothing is claimed missing for: ${result.unlisted.join(', ')}`
      : '';
  return parts.join(', ') + unlisted;
}

/** What the text shows beside the resources; every part defaults to none (a cluster applied by kubectl). */
export interface TextExtras {
  /** One line per GitOps source (`flux-system/apps: 1 object, 4 live changes`). */
  lines?: string[];
  /** What could not be checked or is not supported. */
  notes?: string[];
  /** Sources told to stop reconciling. */
  suspensions?: readonly SuspensionNotice[];
  /** Live objects listed with what is wrong with their identity: never written as files. */
  skipped?: readonly SkippedObject[];
  /** When the (newest) snapshot was taken: times on its day show without the date. */
  capturedAt?: string;
  /** Changes an earlier snapshot showed and a later one shows undone by their controller. */
  undone?: readonly UndoneRow[];
}

function extraBlocks(extras: TextExtras): string[] {
  const blocks: string[] = [];
  if (extras.suspensions?.length) {
    const lines = extras.suspensions.flatMap((notice) => {
      const [what, resume] = suspensionNoticeLines(notice);
      return [`  ${what}`, `    ${resume}`];
    });
    blocks.push(['Suspended (drift under a suspended source is not being reverted):', ...lines].join('\n'));
  }
  if (extras.skipped?.length) {
    const lines = extras.skipped.map((object) => `  ${skippedLine(object)}`);
    blocks.push(['Not written as files (a name the API server or a file system would refuse):', ...lines].join('\n'));
  }
  return blocks;
}

/** `pending`: differences the persistence gate holds back (not in enough consecutive snapshots yet). */
export function renderDiffText(
  result: DiffResult,
  palette: Palette = plainPalette,
  pending = 0,
  sources: TextExtras = {},
): string {
  const undone = undoneLines(sources.undone ?? [], sources.capturedAt);
  const blocks: string[] = [...riskyBlock(result), ...(undone.length ? [undone.join('\n')] : [])];
  blocks.push(...undoLines(result, sources.capturedAt));
  for (const resource of result.resources) {
    if (resource.status === 'in-sync' && resource.conflicts.length === 0 && !resource.reported?.length) continue;
    blocks.push(
      [palette.heading(heading(resource)), ...patchLines(resource, palette), ...notes(resource, palette)].join('\n'),
    );
  }
  if (pending > 0) {
    const are = pending === 1 ? ' is' : 's are';
    const held = `${pending} more difference${are} not in enough consecutive snapshots yet (drift.minSnapshots)`;
    blocks.push(`${held}: not drift until it persists.`);
  }
  blocks.push(...ownerLines(result));
  blocks.push(...extraBlocks(sources));
  if (sources.notes?.length) blocks.push(['Not checked:', ...sources.notes.map((note) => `  ${note}`)].join('\n'));
  if (sources.lines?.length) blocks.push(['Sources:', ...sources.lines.map((line) => `  ${line}`)].join('\n'));
  blocks.push(diffSummaryLine(result));
  return blocks.join('\n\n') + '\n';
}
