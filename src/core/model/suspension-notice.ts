// A source told to stop reconciling, as every report shows it (`driftback diff` and `plan` in text,
// JSON and Markdown): what, since when, by whom, the command that resumes it, and that drift under it
// is not being reverted. Made by core/emergency from the snapshot's suspensions (the ones the App's
// dashboard lists); rendered by core/report and the CLI.

import { showTime } from './show.js';
/** What is suspended: a Flux Kustomization or HelmRelease, an Argo CD Application, or one object. */
export type SourceKind = 'flux-kustomization' | 'flux-helmrelease' | 'argocd-application';

/** How a source was told to stop. */
export type SuspensionMethod =
  | 'suspend' // Flux spec.suspend: true
  | 'automated-sync-off' // Argo CD spec.syncPolicy.automated absent, or enabled: false
  | 'skip-reconcile' // Argo CD annotation argocd.argoproj.io/skip-reconcile: "true"
  | 'reconcile-disabled'; // Flux annotation kustomize.toolkit.fluxcd.io/reconcile: disabled on one object

export interface SuspensionNotice {
  /** `Kustomization/flux-system/apps`. */
  resource: string;
  kind: SourceKind | 'object';
  method: SuspensionMethod;
  /** When it was suspended (managedFields time); absent when nothing records it. */
  since?: string;
  /** The manager that suspended it (`flux`, `kubectl-edit`, `argocd-server`); absent when not recorded. */
  by?: string;
  /** The step that resumes it, and its command (`flux resume kustomization apps -n flux-system`). */
  resume: { text: string; command: string };
  /** Resources that drift under it in this report (none counted: 0). */
  drift: number;
}

/** What a suspension means for drift, in every format. */
export const SUSPENDED_DRIFT = 'drift under it is not being reverted';

/**
 * Two lines of text: `Kustomization/flux-system/apps: suspended since … by flux; drift under it is not
 * being reverted (1 drifted)`, then `resume it: flux resume kustomization apps -n flux-system`.
 */
export function suspensionNoticeLines(notice: SuspensionNotice): [string, string] {
  const since = notice.since ? ` since ${showTime(notice.since)}` : ' (since an unrecorded time)';
  const by = notice.by ? ` by ${notice.by}` : '';
  const drift = notice.drift ? ` (${notice.drift} drifted)` : '';
  return [
    `${notice.resource}: suspended${since}${by}; ${SUSPENDED_DRIFT}${drift}`,
    `${notice.resume.text}: ${notice.resume.command}`,
  ];
}

/** As JSON documents list it: `{resource, kind, method, since, by, resume, drift, note}`, the command as one string. */
export function suspensionJson(notice: SuspensionNotice) {
  const { resume, ...rest } = notice;
  return { ...rest, resume: resume.command, note: SUSPENDED_DRIFT };
}
