// Alert issues for persistent conditions: a cluster whose agent stopped reporting, a GitOps
// controller that stopped applying Git. Titles are stable so the App reopens instead of duplicating.
import { showTime, type ReconcilerState } from '../model/index.js';
import type { StoppedController } from '../plan/index.js';
import { formatAge, secondsBetween } from '../plan/age.js';
import { renderTemplate, type TemplateOverrides } from './template-engine.js';
import { shellCommand } from './shell-command.js';

export interface RenderedIssue {
  title: string;
  body: string;
}

export interface StaleAlertView {
  cluster: string;
  now: string;
  /** The last snapshot's capture time; undefined when none was ever received. */
  lastCapturedAt?: string;
  /** When no snapshot was ever received: since when the cluster is configured. */
  configuredAt?: string;
  staleAfter: string;
}

export function staleAlertTitle(cluster: string): string {
  return `driftback: ${cluster} is not reporting`;
}

export function renderStaleAlert(view: StaleAlertView, options: { templates?: TemplateOverrides } = {}): RenderedIssue {
  const since = view.lastCapturedAt ?? view.configuredAt;
  const seconds = since ? secondsBetween(since, view.now) : undefined;
  const body = renderTemplate(
    'stale-alert',
    {
      cluster: view.cluster,
      age: seconds === undefined ? 'an unknown time' : formatAge(seconds),
      staleAfter: view.staleAfter,
      capturedAt: view.lastCapturedAt ? showTime(view.lastCapturedAt, view.now) : undefined,
    },
    options.templates,
  );
  return { title: staleAlertTitle(view.cluster), body };
}

export interface NotReconcilingAlertView {
  cluster: string;
  state: ReconcilerState;
  /** Why it is not reconciling (from plan's notReconcilingReason, or its controller stopped). */
  reason: string;
  /** Its controller stopped or it is behind HEAD: since when, the commits waiting, what to run. */
  stopped?: {
    stopped: StoppedController;
    /** When HEAD moved past what it applied (or the watch first saw it stopped). */
    since: string;
    /** The commits of HEAD it has not applied, oldest first (GitHub's compare). */
    pending: ReadonlyArray<{ sha: string; message: string }>;
  };
}

function stoppedModel(stopped: NonNullable<NotReconcilingAlertView['stopped']>) {
  const commands = stopped.stopped.commands.map((words) => shellCommand(words)).filter((c) => c !== undefined);
  return {
    ...(stopped.stopped.controller ? { controller: stopped.stopped.controller } : {}),
    since: showTime(stopped.since),
    pending: stopped.pending.map((commit) => ({
      sha: commit.sha.slice(0, 7),
      message: commit.message.split('\n')[0]!.slice(0, 120),
    })),
    commands,
  };
}

export function notReconcilingAlertTitle(cluster: string, state: ReconcilerState): string {
  return `driftback: ${cluster}: ${state.namespace}/${state.name} is not reconciling`;
}

export function renderNotReconcilingAlert(
  view: NotReconcilingAlertView,
  options: { templates?: TemplateOverrides } = {},
): RenderedIssue {
  const { state } = view;
  const flux = state.kind !== 'argocd-application';
  const kind =
    state.kind === 'argocd-application'
      ? 'Application'
      : state.kind === 'flux-helmrelease'
        ? 'HelmRelease'
        : 'Kustomization';
  const fluxKind = state.kind === 'flux-helmrelease' ? 'helmrelease' : 'kustomization';
  // Flux objects and Argo CD Applications are custom resources: DNS-1123 subdomain names.
  const name = { value: state.name, rule: 'dns-1123-subdomain' as const };
  const namespace = { value: state.namespace, rule: 'dns-1123-label' as const };
  const body = renderTemplate(
    'not-reconciling-alert',
    {
      cluster: view.cluster,
      resource: `${kind}/${state.namespace}/${state.name}`,
      reason: view.reason,
      suspended: state.suspended,
      resumeCommand: shellCommand(
        flux
          ? ['flux', 'resume', fluxKind, name, '-n', namespace]
          : ['argocd', 'app', 'set', name, '--sync-policy', 'automated'],
      ),
      describeCommand: shellCommand(
        flux ? ['flux', 'get', fluxKind, name, '-n', namespace] : ['argocd', 'app', 'get', name],
      ),
      ...(view.stopped ? stoppedModel(view.stopped) : {}),
    },
    options.templates,
  );
  return { title: notReconcilingAlertTitle(view.cluster, state), body };
}
