// People's changes their GitOps controller is about to undo (partial `undo`), one group per controller.

/** One change the controller will undo: the object and field, who made it and when, and what happens. */
export interface UndoRowModel {
  resource: string;
  /** The field as people read it; '' when the whole object is meant. */
  field: string;
  who: string;
  when: string;
  time?: string;
  /** What happens to the field: `removed` or `set back to Git's value`. */
  effect: string;
  /** What the controller does and why, in words (`Flux Kustomization flux-system/apps applies Git's value again …`). */
  why: string;
}

/** One controller and the changes it will undo. */
export interface UndoGroupModel {
  /** `Flux Kustomization flux-system/apps`, `Argo CD Application argocd/guestbook`. */
  by: string;
  /** `undo` (next reconcile, self-heal) or `undo-at-commit` (automated sync at the next commit). */
  what: string;
  /** The earliest time it happens (ISO 8601), when the controller's status says; `dueAt` as people read it. */
  due?: string;
  dueAt?: string;
  /** True when a change outlived that time: the controller is not reconciling. */
  overdue?: boolean;
  /** What to do to keep them, in the emergency procedure's order (`backticked` spans are code). */
  remedy: string;
  rows: UndoRowModel[];
  /** Rows left out for length. */
  omitted: number;
}
