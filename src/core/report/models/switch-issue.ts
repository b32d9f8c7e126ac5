// The model of the emergency switch issue (template `switch-issue`): the switches a person flipped by
// hand on a cluster with no drift pull request to decide on, each with what it stops and how to decide.

export interface SwitchIssueModel {
  cluster: string;
  switches: SwitchModel[];
}

export interface SwitchModel {
  /** The object, as people read it: `CronJob/shop/archive`. */
  resource: string;
  /** The field as `/driftback allow` names it: `spec.suspend`. */
  field: string;
  /** What flipping it did (`suspended`), and the command that flips it (`kubectl rollout pause`). */
  did: string;
  command: string;
  /** What it stops while it is on, in words; `` `backticked` `` spans are code (use `{{prose stops}}`). */
  stops: string;
  /** false: turned off by hand while Git keeps it on (the next sync turns it on again). */
  on: boolean;
  /** The live value as JSON (`true`); absent when live does not set it. */
  live?: string;
  /** Git's value as JSON; absent when Git does not declare it. */
  git?: string;
  /** The manager that flipped it (`kubectl-patch`) and when (`2026-12-01 12:01 UTC`); absent when managedFields do not say. */
  who?: string;
  since?: string;
  /** The file in Git that declares the object: where a decision writes the value. */
  file: string;
  /** The exact command that keeps it in Git, the reason left to write; absent once decided. */
  allow?: string;
  /** A person's decision to keep it: `text` (`decided by alice: …`), the drift PR's `branch`, and its `pullRequest` once open. */
  decided?: { text: string; branch: string; pullRequest?: number };
}
