// Imperative actions: one-off commands recorded on an object, not a desired state. A drift PR never
// writes them into Git; the report says what they are. Also the kinds that are never a file: objects
// that exist for a while and go (a Pod, a hand-made Job, a ReplicaSet).
import type { FieldChange, KubeObject } from '../model/index.js';
import { escapeSegment, groupOf, isPlainObject } from '../model/index.js';

export interface ImperativeAction {
  /** JSON pointer of the field the action writes. */
  path: string;
  /** The command that writes it. */
  command: string;
  /** Why it is never codified, for the PR body's "Reported, not codified" table. */
  reason: string;
  /** The kinds it is an action on; undefined: any kind. */
  kinds?: readonly string[];
}

/** Every imperative action the engine knows, by the field it leaves behind. */
export const IMPERATIVE_ACTIONS: readonly ImperativeAction[] = [
  {
    path: '/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt',
    command: 'kubectl rollout restart',
    reason: 'imperative action (`kubectl rollout restart`): a one-off restart, not a desired state',
  },
  {
    path: '/metadata/annotations/reconcile.fluxcd.io~1requestedAt',
    command: 'flux reconcile',
    reason: 'imperative action (`flux reconcile`): a request to reconcile now, not a desired state',
  },
  {
    path: '/metadata/annotations/reconcile.fluxcd.io~1forceAt',
    command: 'flux reconcile --force',
    reason: 'imperative action (`flux reconcile --force`): a request to force a release, not a desired state',
  },
  {
    path: '/metadata/annotations/reconcile.fluxcd.io~1resetAt',
    command: 'flux reconcile --reset',
    reason: 'imperative action (`flux reconcile --reset`): a request to reset retries, not a desired state',
  },
  {
    path: '/metadata/annotations/argocd.argoproj.io~1refresh',
    command: 'argocd app get --refresh',
    reason: 'imperative action (an Argo CD refresh request): removed by Argo CD once served',
  },
  // External Secrets' FAQ: `kubectl annotate es my-es force-sync=$(date +%s) --overwrite`, and
  // `external-secrets.io/force-sync` on a ClusterExternalSecret refreshes every ExternalSecret it makes.
  {
    path: '/metadata/annotations/force-sync',
    command: 'kubectl annotate es … force-sync=$(date +%s)',
    reason:
      'imperative action (External Secrets `force-sync`): a request to refresh the secret now, not a desired state',
    kinds: ['ExternalSecret'],
  },
  {
    path: '/metadata/annotations/external-secrets.io~1force-sync',
    command: 'kubectl annotate ces … external-secrets.io/force-sync=$(date +%s)',
    reason:
      'imperative action (External Secrets `force-sync`): a request to refresh every ExternalSecret it makes now, not a desired state',
    kinds: ['ClusterExternalSecret'],
  },
  {
    path: '/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration',
    command: 'kubectl apply',
    reason: "kubectl's record of the last manifest it applied, not part of any manifest",
  },
  {
    path: '/metadata/annotations/deployment.kubernetes.io~1revision',
    command: 'deployment controller',
    reason: 'the rollout revision the deployment controller counts, not part of any manifest',
  },
  {
    path: '/metadata/annotations/kubernetes.io~1change-cause',
    command: 'kubectl --record',
    reason: 'the command that caused a rollout (`--record`), not part of any manifest',
  },
];

const BY_PATH = new Map(IMPERATIVE_ACTIONS.map((action) => [action.path, action]));

/** The imperative action a field belongs to, or undefined. `kind` scopes an action to the kinds it acts on. */
export function imperativeActionAt(path: string, kind?: string): ImperativeAction | undefined {
  const action = BY_PATH.get(path);
  if (action?.kinds && kind !== undefined && !action.kinds.includes(kind)) return undefined;
  return action;
}

/** The imperative action a change records (its own path, or a map of annotations that holds one). */
export function imperativeActionOf(
  change: Pick<FieldChange, 'path' | 'live'>,
  kind?: string,
): ImperativeAction | undefined {
  const direct = imperativeActionAt(change.path, kind);
  if (direct) return direct;
  // A whole annotations map added by hand holding only imperative keys (`restartedAt` on a template that had none).
  if (!change.path.endsWith('/annotations') || !isPlainObject(change.live)) return undefined;
  const keys = Object.keys(change.live);
  const actions = keys.map((key) => imperativeActionAt(`${change.path}/${escapeSegment(key)}`, kind));
  return keys.length > 0 && actions.every((a) => a !== undefined) ? actions[0] : undefined;
}

/** Kinds whose objects come and go: never written as a new file, whoever made them. */
export const EPHEMERAL_KINDS: ReadonlySet<string> = new Set([
  '/Pod',
  'apps/ReplicaSet',
  '/ReplicationController',
  'batch/Job',
  '/Event',
  'events.k8s.io/Event',
  'coordination.k8s.io/Lease',
  '/Endpoints',
  'discovery.k8s.io/EndpointSlice',
]);

/** Why an object of this kind is never a new file, or undefined when it may be. */
export function ephemeralReason(object: KubeObject): string | undefined {
  const group = groupOf(object.apiVersion ?? '');
  if (!EPHEMERAL_KINDS.has(`${group}/${object.kind}`)) return undefined;
  if (object.kind === 'Job')
    return 'ephemeral kind: a hand-made Job runs once; never written as a file: to run it again, declare a CronJob';
  const what = `a ${object.kind} is made and replaced at run time`;
  return `ephemeral kind: ${what}; never written as a file: to keep one, declare what makes it (a Deployment)`;
}
