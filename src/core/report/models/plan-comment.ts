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

/** Names on a line: one name, or a numbered run of them (`shop/cfg-001` … `shop/cfg-480`). */
export interface NameSpan {
  first: string;
  /** The last name of a run of three or more consecutive numbers; absent for one name. */
  last?: string;
  /** How many objects the span stands for. */
  count: number;
}

/**
 * One line of a condensed plan: the objects of one kind that one operation touches in one file (for
 * a prune, one source), when the diffs do not fit.
 */
export interface PlanGroupModel {
  symbol: '+' | '~' | '-';
  action: 'create' | 'update' | 'prune';
  kind: string;
  /** How many objects the line stands for. */
  count: number;
  /** `Kind/namespace/name` when the line is one object. */
  resource?: string;
  /** The names shown, sorted naturally, runs as ranges. */
  names: NameSpan[];
  /** Objects on the line whose names are not shown (`and 12 more`). */
  namesOmitted: number;
  /** In words, `backticked` spans code: `declared in \`apps/shop.yaml\``, `applied by Flux Kustomization flux-system/apps`; for one object, who and when as a resource row says it. */
  where: string;
  /** The fields the updates change (the first few) and on how many of the line's objects, at the level of detail that shows them. */
  fields: Array<{ name: string; objects: number }>;
  fieldsOmitted: number;
  /** The prunes delete data (a `prune-protected` warning): such lines come first and are never merged with others. */
  deletesData: boolean;
}

/** The warnings of one kind in one line: its title, how many, and the objects they name. */
export interface WarningDigestModel {
  code: string;
  title: string;
  count: number;
  names: NameSpan[];
  namesOmitted: number;
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
  /** `objects`: how many the apply creates, updates and prunes together. */
  counts: { create: number; update: number; prune: number; unchanged: number; warnings: number; objects: number };
  /** When the snapshot the plan is made against was taken, as shown (`11:50 UTC`), when known. */
  snapshot?: string;
  warnings: PlanWarningModel[];
  warningsOmitted: number;
  resources: PlanResourceModel[];
  resourcesOmitted: number;
  /**
   * Set when the diffs were left out: `groups` then hold every created, updated and pruned object as
   * lines of one kind, operation and file, which the built-in template shows instead of `resources`.
   */
  condensed: boolean;
  groups: PlanGroupModel[];
  /** Objects on lines left out at the least detailed levels (counted in `counts`). */
  groupsOmitted: { lines: number; objects: number };
  /** One line per kind of warning, shown above the folded warnings when there are more than 20. */
  warningDigest: WarningDigestModel[];
  /** More than 20 warnings: the built-in template shows `warningDigest` and folds `warnings`. */
  foldWarnings: boolean;
  /** Live objects that head no longer declares but that are never pruned, and why. */
  kept: Array<{ resource: string; reason: string }>;
  /** Hooks each sync runs (not desired state): the resource, and when it runs (`PreSync, wave -1; …`). */
  hooks: Array<{ resource: string; what: string; runs: string }>;
  /**
   * Hooks that run because the plan deletes their Application (PreDelete / PostDelete, not desired
   * state): the resource, the Application (`argocd/shop`) and when it runs.
   */
  /** `owner`: the kind whose deletion runs it, `Application` (Argo CD) or `HelmRelease` (helm uninstall). */
  deleteHooks: Array<{ resource: string; what: string; owner: string; application: string; runs: string }>;
  /** What deleteHooks' owners are, for the heading: `Application`, `HelmRelease`, `Application or HelmRelease`. */
  deleteHookOwners: string;
  /**
   * Manifests with generateName: created anew on every sync, never compared or pruned. `resource` is
   * `Job/shop/db-migrate-*`; `made` the live objects made from it that the plan leaves alone.
   */
  generated: Array<{ resource: string; file: string; made: string[] }>;
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
