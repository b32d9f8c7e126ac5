// Security-relevant drift as every document shows it first (partial `risky-drift`).
import type { ReportedRowModel } from './drift-pull-request.js';

/** One risk of an item: its stable code and, in words, what was found. */
export interface RiskModel {
  /** `rbac-escalation`, `image-registry`, `privilege` or `unknown-manager`. */
  code: string;
  why: string;
}

/** One item of risky drift waiting for a person's decision: a reported row's object, field, who and when. */
export interface RiskyRowModel extends Omit<ReportedRowModel, 'reason'> {
  /** The codes, comma separated (`image-registry, unknown-manager`). */
  codes: string;
  risks: RiskModel[];
}
