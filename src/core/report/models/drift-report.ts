// The model of `driftback diff --format markdown` (template `drift-markdown`).
import type { DiffSummary } from '../../model/index.js';
import type { ChangeRowModel, ValueDiffModel } from './changes.js';
import type { ReportedRowModel } from './drift-pull-request.js';

export interface DriftReportRowModel extends ChangeRowModel {
  /** `modified`, `missing` (in Git, not live) or `extra` (live, not in Git). */
  status: string;
  resource: string;
}

export interface DriftReportModel {
  /** Counts by status (`inSync`, `modified`, `missing`, `extra`, `ignored`, `conflicts`). */
  summary: DiffSummary;
  /** `2 modified, 1 extra, 40 in sync; 2 ignored`: the counts in one line. */
  headline: string;
  /** When the (newest) snapshot was taken, as shown (`2026-12-02 05:00 UTC`), when known. */
  snapshotAt?: string;
  /** Types the snapshot could not list (`apps/v1/statefulsets`): nothing is claimed missing for them. */
  unlisted: string[];
  rows: DriftReportRowModel[];
  /** Values too long for the table, as YAML diffs. */
  diffs: ValueDiffModel[];
  rowsOmitted: number;
  /** Reported and never codified, each with who made it, when, and the cause. */
  reported: ReportedRowModel[];
  /** Sources told to stop reconciling: drift under them is not being reverted. */
  suspensions: Array<{ resource: string; since: string; by: string; resume: string; drift: number }>;
  /** Live objects listed with what is wrong with their identity: never written as files. */
  skipped: Array<{ item: string; kind: string; message: string; compared: boolean }>;
}
