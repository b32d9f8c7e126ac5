// The row of one field change, shared by the drift pull request and `driftback diff --format markdown`.

/** A long value shown below the table as a YAML diff instead of in its cell. */
export interface ValueDiffModel {
  /** Its number, which the row's cell names (`diff 1 below`). */
  number: number;
  /** What it is about: the resource and the field. */
  title: string;
  /** A unified diff of Git's value (`---`) and the live value (`+++`) as YAML. */
  diff: string;
}

export interface ChangeRowModel {
  /** The field as people read it (`spec.template.spec.containers[server].env[DEBUG]`); '' for a whole object. */
  field: string;
  /** The same field as a JSON pointer (`/spec/template/spec/containers/0/env/1`), for machines and ignore rules. */
  pointer: string;
  /** `replace` (both sides set), `add` (only live sets it), `remove` (Git no longer declares it). */
  op: 'replace' | 'add' | 'remove';
  /** Git's value on one line (a scalar, or flow YAML); undefined when Git does not set it or `diff` is set. */
  git?: string;
  /**
   * The live value on one line; undefined when live does not set it or `diff` is set. When both are long
   * strings sharing a start, only the part from where they differ (`:6.14.1`), and `git` has its middle
   * path elided (`ghcr.io/…/podinfo:6.14.0`).
   */
  live?: string;
  /** The number of the value diff below the table, when a value takes several lines or over 200 characters. */
  diff?: number;
  /** The field manager that wrote the live value (`kubectl-edit`), or `not recorded`. */
  who: string;
  /** When, in UTC (`03:10 UTC`; the date is shown when it is not the snapshot's), or what is known instead. */
  when: string;
  /** The time as recorded (ISO 8601), when there is one. */
  time?: string;
  /** `human`, `controller`, `applier` or `unknown`: what kind of manager wrote it. */
  cause: string;
}
