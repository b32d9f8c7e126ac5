// The model of the plan comment on a pull request (template `plan-comment`).

/** A warning about the plan: what would hurt, and what to do. */
export interface PlanWarningModel {
  /** The stable code (`reverts-live-change`, `conflict`, `prune-protected`, …), as in the JSON output. */
  code: string;
  /** The code in words (`Reverts a live change`). */
  title: string;
  /** The resource it is about (`Kind/namespace/name`), when it is about one. */
  resource?: string;
  /** `file:line` in the pull request that declares the field, when known. */
  where?: string;
  /**
   * What happens and what to do (a sentence; `backticked` spans are code). For several fields of one
   * resource, what to do about all of them; `fields` says what happens to each.
   */
  message: string;
  /** One line per field when a resource has several warnings of one kind: where, and what happens. */
  fields: Array<{ where?: string; message: string }>;
  /** The objects a warning is about when it names several (`Kind/namespace/name`). */
  objects: string[];
  /** Set when `objects` are too many to read inline: they go behind a click. */
  foldObjects: boolean;
}

/** One resource the apply creates, updates or prunes. */
export interface PlanResourceModel {
  /** Terraform's symbol: `+` create, `~` update, `-` prune. */
  symbol: '+' | '~' | '-';
  action: 'create' | 'update' | 'prune';
  resource: string;
  /** The fields an update changes, as people read them (empty for create and prune). */
  fields: string[];
  /**
   * Who and when, in words (`backticked` spans are code): for an update, whose live values it
   * overwrites (`overwrites kubectl-scale's spec.replicas at 03:02 UTC`) or who applied last; for a
   * prune, who created the object; for a create, the file that declares it.
   */
  who: string;
  /** A unified YAML diff (live → head), at the most detailed level only. */
  diff?: string;
}

/** The plan of one cluster. */
export interface ClusterPlanModel {
  name: string;
  /** One line per GitOps source (`flux-system/apps: 1 to update`); empty for a cluster applied by kubectl. */
  sources: string[];
  /** Sources told to stop reconciling: since when (as shown), by whom, and the step that resumes them. */
  suspensions: Array<{ resource: string; since?: string; by?: string; resumeText: string; resume: string }>;
  /**
   * The one line at the top of the cluster's section: `3 to create, 1 to update, 1 to prune, 30 unchanged;
   * 1 warning; overwrites 1 live change by kubectl-scale, last 03:02 UTC`.
   */
  headline: string;
  /** Terraform's one-liner with the cluster's name (`prod-eu: 3 to create, …`), as the check run shows it. */
  summary: string;
  counts: { create: number; update: number; prune: number; unchanged: number; warnings: number };
  /** When the snapshot the plan is made against was taken, as shown (`11:50 UTC`), when known. */
  snapshot?: string;
  warnings: PlanWarningModel[];
  warningsOmitted: number;
  resources: PlanResourceModel[];
  resourcesOmitted: number;
  /** Live objects that head no longer declares but that are never pruned, and why. */
  kept: Array<{ resource: string; reason: string }>;
  /** Hooks each sync runs (not desired state): the resource, and when it runs (`PreSync, wave -1; …`). */
  hooks: Array<{ resource: string; what: string; runs: string }>;
}

export interface PlanCommentModel {
  /** The pull request's head commit the plan is for, short as GitHub shows it (`c6090dd`). */
  headSha?: string;
  /** Config or manifest errors, each `file:line: message`. */
  errors: string[];
  clusters: ClusterPlanModel[];
  /** Set when detail was left out to fit GitHub's size limit: says what is missing. */
  note?: string;
  /** Set when the pull request changes the config file: the plan uses the base branch's config. */
  configChange?: ConfigChangeModel;
}

/** What a pull request's own config would change (plans always use the base branch's config). */
export interface ConfigChangeModel {
  /** The config file's path in the repository. */
  file: string;
  /** One line per change the proposed config would make; absent when it has errors. */
  changes?: string[];
  /** Why nothing was planned (the base branch has no valid config), when so. */
  unplanned?: string;
  /** The proposed config has errors (listed with the other errors). */
  invalid: boolean;
}
