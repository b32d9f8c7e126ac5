// The model of the drift pull request body (template `drift-pull-request`).
import type { ChangeRowModel, ValueDiffModel } from './changes.js';
import type { RiskyRowModel } from './risk.js';
import type { UndoGroupModel } from './undo.js';

/** One changed row of a codified resource: the change and the file it is written to. */
export interface CodifiedRowModel extends ChangeRowModel {
  /** `path:line` the value is written to, relative to `filesUnder`. */
  file: string;
  /** Security-relevant drift codified by an explicit decision: `privilege allowed (drift.allowRisky: …)`. */
  allowed?: string;
  /**
   * A change under a chart, written into the chart value that renders it: the value (`replicaCount`),
   * where it is set (a values file, or the field that holds the values: `spec.values`), that field's
   * object when it is not the declaring one (`ConfigMap shop/web-values`), and what declares the chart.
   */
  chartValue?: { value: string; where: string; object?: string; source: string };
}

/** A resource whose fields the pull request writes. */
export interface CodifiedResourceModel {
  /** `Kind/namespace/name` (`Kind/name` when cluster-scoped). */
  resource: string;
  /** The file most of its rows are written to, relative to `filesUnder`. */
  file: string;
  rows: CodifiedRowModel[];
  /** Values too long for the table, as YAML diffs (numbered as the rows name them). */
  diffs: ValueDiffModel[];
}

/** An object made in the cluster that the pull request adds as a new manifest. */
export interface NewObjectModel {
  resource: string;
  /** The manager that created it (from managedFields), or `not recorded`. */
  who: string;
  /** When it was created (`02:00 UTC`). */
  when: string;
  time?: string;
  /** The new manifest's path, relative to `filesUnder`. */
  file: string;
  /** Why the file is not where `pullRequests.newResourcePath` would put it (a sentence), when it is not. */
  note?: string;
}

/** A live change that is reported and not codified, with the reason. */
export interface ReportedRowModel {
  resource: string;
  /** The field as people read it; '' when the whole object is meant. */
  field: string;
  pointer: string;
  who: string;
  when: string;
  time?: string;
  /** Who made it: `human`, `controller`, `unknown` (absent when not known). */
  cause?: string;
  /** Why it is not codified (a sentence; `backticked` spans are code). */
  reason: string;
}

/** A GitOps source the pull request's changes come from (none for a cluster applied by kubectl). */
export interface PullRequestSourceModel {
  /** `flux-system/apps`, `argocd/guestbook`. */
  name: string;
  controller: 'flux' | 'argocd';
  /** The path it renders from this repository, when known. */
  path?: string;
  /** Resources of this source that drift in this pull request. */
  drift: number;
  /** The same in the one unit of drift: `1 object, 4 live changes`. */
  amount: string;
  /** The revision the controller last applied (`main@sha1:0123abc…`), when the snapshot records it. */
  appliedRevision?: string;
  suspended: boolean;
}

/** The procedure an emergency pull request opens with (partial `emergency`), one per suspended source. */
export interface EmergencySectionModel {
  /** The suspended source (`Kustomization/flux-system/apps`). */
  source: string;
  /** The command that resumes it (`flux resume kustomization apps -n flux-system`). */
  resume: string;
  /** The procedure's steps done so far; the built-in section shows them as a checklist driftback ticks. */
  checklist: { merged: boolean; resumed: boolean; applied: boolean; inSync: boolean };
  /** The whole section as the built-in template shows it (Markdown: warning, changes, steps, checklist). */
  markdown: string;
}

export interface DriftPullRequestModel {
  cluster: string;
  /** Set when the changes were made while a source was suspended: what the reader must do next. */
  emergency: EmergencySectionModel[];
  /**
   * The one line a reviewer reads first: `3 live changes by kubectl-edit and kubectl-scale in checkout,
   * last 03:10 UTC; 1 reported, not codified`.
   */
  headline: string;
  /**
   * `seen in 1 snapshot` (`seen in 1 to 2 or more snapshots`) while what the pull request codifies
   * was seen in fewer snapshots than the persistence gate asks for (drift under a suspension passes at
   * once); absent once it persisted.
   */
  seenIn?: string;
  /** The numbers behind the headline. */
  summary: {
    /** Codified rows: changed fields and new objects. */
    changes: number;
    /** The objects they are in. */
    objects: number;
    /** The managers that made them (`not recorded` ones left out), sorted. */
    managers: string[];
    /** The namespaces they are in ('' for cluster-scoped objects), sorted. */
    namespaces: string[];
    /** The latest change's time as shown (`03:10 UTC`), when any is recorded. */
    last?: string;
    /** Reported rows, risky ones not counted. */
    reported: number;
    /** Security-relevant changes and objects held for a person's decision. */
    risky: number;
  };
  /** The GitOps sources the changes come from, with drift counts; empty for a kubectl cluster. */
  sources: PullRequestSourceModel[];
  /** The snapshot the values come from; `takenAt` as shown (`2026-12-02 05:00 UTC`). */
  snapshot: { id: string; capturedAt: string; takenAt: string };
  /** The directory every file below is relative to (`clusters/prod-eu/`), or '' for the repository root. */
  filesUnder: string;
  /** Resources whose fields are written, in the order codify wrote them. */
  resources: CodifiedResourceModel[];
  /** Objects added as new manifests. */
  created: NewObjectModel[];
  /** Codified rows left out to fit GitHub's size limit. */
  codifiedOmitted: number;
  reported: ReportedRowModel[];
  reportedOmitted: number;
  /** Security-relevant drift held for a person's decision (partial `risky-drift`), shown first. */
  risky: RiskyRowModel[];
  riskyOmitted: number;
  /** Changes the GitOps controller is about to undo, per controller, with the remedy (partial `undo`). */
  undo: UndoGroupModel[];
}
