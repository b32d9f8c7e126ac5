// A GitOps controller that stopped: its workload (kustomize-controller, helm-controller,
// argocd-application-controller) has no ready replica, or a source it runs still applies a revision
// that is not the repository's HEAD for longer than three of its intervals (at least 15 minutes).
// "Behind" only compares revisions: whether HEAD follows the applied commit (a source of another
// repository or branch never does) the App asks GitHub before it alerts.
import { revisionCommit } from '../emergency/index.js';
import { GITOPS_CONTROLLER_WORKLOADS } from '../k8s/index.js';
import { groupOf, type KubeObject, type ReconcilerState } from '../model/index.js';
import { formatAge } from './age.js';
import { refreshPaths } from './argo-resync.js';

/** The workload each kind of reconciler is run by (Flux's and Argo CD's install manifests name them so). */
const CONTROLLERS: Record<ReconcilerState['kind'], { kinds: readonly string[]; name: string }> =
  GITOPS_CONTROLLER_WORKLOADS;

/** Argo CD's default `timeout.reconciliation` (argocd-cm): 180s. */
const ARGO_INTERVAL_SECONDS = 180;
const MIN_THRESHOLD_SECONDS = 15 * 60;

export interface StoppedController {
  /**
   * `controller-stopped`: its workload has no ready replica; `behind-head`: HEAD is not applied past the
   * threshold; `out-of-sync`: an Argo CD Application OutOfSync at HEAD that does not sync (argoBehind).
   */
  type: 'controller-stopped' | 'behind-head' | 'out-of-sync';
  /** `Deployment/flux-system/kustomize-controller`; absent when the snapshot does not hold the workload. */
  controller?: string;
  /** 3 × the source's interval, at least 15 minutes. */
  thresholdSeconds: number;
  /** The commit the source last applied, when its revision names one. */
  applied?: string;
  /** What a person runs to bring it back, word by word (the report quotes them). */
  commands: CommandWord[][];
  /** `out-of-sync`: why it does not sync, and the repository paths whose changes it applies ('' = all). */
  why?: string;
  paths?: readonly string[];
}

/** A Go duration as Flux writes `spec.interval` (`10m`, `1m0s`, `1h30m`), in seconds. */
function goSeconds(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^(\d+(\.\d+)?(h|m|s))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, value, unit] of text.matchAll(/(\d+(?:\.\d+)?)(h|m|s)/g))
    total += Number(value) * { h: 3600, m: 60, s: 1 }[unit as 'h' | 'm' | 's'];
  return total;
}

/**
 * Argo CD's interval: `timeout.reconciliation` of the snapshot's argocd-cm (the one in the Application's
 * namespace, else in `argocd`, else the only one), a Go duration; 180s when none sets it. `0` turns the
 * periodic refresh off (webhooks only): the 15-minute floor still holds.
 */
function argoIntervalSeconds(source: KubeObject, items: readonly KubeObject[]): number {
  const maps = items.filter((o) => o.apiVersion === 'v1' && o.kind === 'ConfigMap' && o.metadata.name === 'argocd-cm');
  const namespaced = (namespace: string | undefined) => maps.find((o) => o.metadata.namespace === namespace);
  const cm = namespaced(source.metadata.namespace) ?? namespaced('argocd') ?? (maps.length === 1 ? maps[0] : undefined);
  const value = (cm?.data as Record<string, unknown> | undefined)?.['timeout.reconciliation'];
  if (value === '0') return 0;
  return goSeconds(value) ?? ARGO_INTERVAL_SECONDS;
}

/** How long a source may be behind HEAD before it is not reconciling: 3 × its interval, at least 15 minutes. */
export function behindThreshold(source: KubeObject, state: ReconcilerState, items: readonly KubeObject[] = []): number {
  const spec = source.spec as Record<string, unknown> | undefined;
  const interval = state.kind === 'argocd-application' ? argoIntervalSeconds(source, items) : goSeconds(spec?.interval);
  return Math.max(MIN_THRESHOLD_SECONDS, 3 * (interval ?? ARGO_INTERVAL_SECONDS));
}

function findWorkload(state: ReconcilerState, items: readonly KubeObject[]): KubeObject | undefined {
  const { kinds, name } = CONTROLLERS[state.kind];
  const candidates = items.filter(
    (o) => groupOf(o.apiVersion ?? '') === 'apps' && kinds.includes(o.kind) && o.metadata.name === name,
  );
  return candidates.find((o) => o.metadata.namespace === state.namespace) ?? candidates[0];
}

/** A word of a suggested command: literal text, or a name from the snapshot with the rule it must meet. */
export type CommandWord = string | { value: string; rule: 'dns-1123-label' | 'dns-1123-subdomain' };

const label = (value: string) => ({ value, rule: 'dns-1123-label' as const });
const subdomain = (value: string) => ({ value, rule: 'dns-1123-subdomain' as const });

function commandsFor(state: ReconcilerState, workload: KubeObject | undefined, stopped: boolean): CommandWord[][] {
  const scale: CommandWord[][] = workload
    ? [
        [
          'kubectl',
          '-n',
          label(workload.metadata.namespace ?? ''),
          'scale',
          workload.kind.toLowerCase(),
          subdomain(workload.metadata.name ?? ''),
          '--replicas=1',
        ],
      ]
    : [];
  const nudge: CommandWord[] =
    state.kind === 'argocd-application'
      ? ['argocd', 'app', 'get', subdomain(state.name), '--refresh']
      : [
          'flux',
          'reconcile',
          state.kind === 'flux-helmrelease' ? 'helmrelease' : 'kustomization',
          subdomain(state.name),
          '-n',
          label(state.namespace),
          '--with-source',
        ];
  return [...(stopped ? scale : []), nudge];
}

/** What the checks of one reconciler read: its object and state, the snapshot's objects, HEAD, and now. */
interface ReconcilerCheck {
  source: KubeObject;
  state: ReconcilerState;
  /** The snapshot's objects: the controller's workload, the settings of its instance. */
  items: readonly KubeObject[];
  /** The repository's HEAD commit and when the App learned it; undefined when not known. */
  head: { sha: string; at: string } | undefined;
  now: string;
}

/**
 * Whether the controller behind a reconciler (not suspended) stopped: `head` is the repository's HEAD
 * commit and when the App learned it. Undefined when it runs and has applied HEAD (or is within the threshold).
 */
export function controllerStopped(check: ReconcilerCheck): StoppedController | undefined {
  const { source, state, items, head, now } = check;
  if (state.suspended) return undefined;
  const workload = findWorkload(state, items);
  const ready = workload ? Number((workload.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0) : 1;
  const applied = revisionCommit(state.lastAppliedRevision);
  const thresholdSeconds = behindThreshold(source, state, items);
  const waited = head ? Date.parse(now) - Date.parse(head.at) : Number.NaN;
  const behind =
    head !== undefined && applied !== undefined && applied !== head.sha && waited > thresholdSeconds * 1000;
  if (ready > 0 && !behind) return undefined;
  return {
    type: ready > 0 ? 'behind-head' : 'controller-stopped',
    ...(workload ? { controller: `${workload.kind}/${workload.metadata.namespace}/${workload.metadata.name}` } : {}),
    thresholdSeconds,
    ...(applied ? { applied } : {}),
    commands: commandsFor(state, workload, ready === 0),
  };
}

/** Why an Application OutOfSync at HEAD does not sync; undefined when it synced HEAD (or is syncing). */
function argoStuck(source: KubeObject, state: ReconcilerState, head: string): string | undefined {
  const status = source.status as ArgoStatus | undefined;
  const operation = status?.operationState;
  if (state.suspended) return 'automated sync is off';
  // Argo CD ends its message with a full stop (`… (retried 5 times).`): the sentence around it has its own.
  if (operation?.phase === 'Failed' || operation?.phase === 'Error')
    return `sync failed: ${operation.message?.trim().replace(/\.+$/, '') || operation.phase}`;
  if (revisionCommit(operation?.syncResult?.revision) !== head) return 'sync has not run at HEAD';
  return undefined;
}

interface ArgoStatus {
  sync?: { status?: string; revision?: string };
  history?: Array<{ revision?: string }>;
  operationState?: { phase?: string; message?: string; syncResult?: { revision?: string } };
}

/** The commit an Application last synced successfully: its last history entry, else a succeeded operation's. */
function lastSynced(status: ArgoStatus | undefined): string | undefined {
  const history = Array.isArray(status?.history) ? status.history : [];
  const operation = status?.operationState;
  const revision =
    history.at(-1)?.revision ?? (operation?.phase === 'Succeeded' ? operation.syncResult?.revision : undefined);
  return revisionCommit(revision);
}

/**
 * An Argo CD Application of this repository behind HEAD while its controller runs. Its sync revision
 * moves at every refresh, so that alone proves nothing: the evidence is `OutOfSync` at HEAD for longer
 * than the threshold (counted from when the App learned HEAD), a last successful sync of another commit
 * (`applied`, the base GitHub compares with HEAD: the decision then checks that the comparison changed
 * files under `paths`, else the OutOfSync is a hand change, drift), and a reason it does not sync.
 */
export function argoBehind(check: ReconcilerCheck): StoppedController | undefined {
  const { source, state, items, head, now } = check;
  const status = source.status as ArgoStatus | undefined;
  if (state.kind !== 'argocd-application' || !head || status?.sync?.status !== 'OutOfSync') return undefined;
  if (revisionCommit(status.sync.revision) !== head.sha) return undefined;
  const applied = lastSynced(status);
  const thresholdSeconds = behindThreshold(source, state, items);
  if (!applied || applied === head.sha || Date.parse(now) - Date.parse(head.at) <= thresholdSeconds * 1000)
    return undefined;
  const why = argoStuck(source, state, head.sha);
  if (!why) return undefined;
  return {
    type: 'out-of-sync',
    thresholdSeconds,
    applied,
    commands: [['argocd', 'app', 'sync', `${state.namespace}/${state.name}`]],
    why,
    paths: refreshPaths(source, state.path) ?? [state.path ?? ''],
  };
}

/** In words, after the reconciler's name: why it is not reconciling. */
export function stoppedReason(stopped: StoppedController): string {
  if (stopped.type === 'out-of-sync')
    return `is OutOfSync at the repository's HEAD for longer than ${formatAge(stopped.thresholdSeconds)}: ${stopped.why ?? 'it does not sync'}`;
  if (stopped.type === 'controller-stopped')
    return `is not reconciling: its controller ${stopped.controller ?? 'workload'} has no ready replica (not running)`;
  return `has not applied the repository's HEAD for longer than ${formatAge(stopped.thresholdSeconds)} (3 of its intervals, at least 15m)`;
}
