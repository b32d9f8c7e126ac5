// Emergency switches: fields a person flips by hand to stop something now — a CronJob's schedule, a
// Deployment's rollouts, KEDA's autoscaling, Crossplane's reconciliation. Each is reported with what
// it stops and never codified: written into Git it would keep the thing stopped for good, a decision
// only a person makes (by writing it into Git themselves). Sources: batch/v1 CronJobSpec.suspend,
// apps/v1 DeploymentSpec.paused (`kubectl rollout pause`), KEDA's "Pausing autoscaling" (ScaledObject
// `autoscaling.keda.sh/paused-replicas` and `autoscaling.keda.sh/paused`, ScaledJob `autoscaling.keda.sh/paused`),
// Crossplane's "Pause reconciliation" (`crossplane.io/paused: "true"` on any Crossplane resource),
// Argo Rollouts' `kubectl argo rollouts pause` (a merge patch `{"spec":{"paused":true}}` on the Rollout),
// and a GitOps controller's workload scaled to 0 (Flux's and Argo CD's install manifests name them).
// A person may still keep one for good: `/driftback allow` on the drift PR is that decision (allow-switches.ts).
import type { FieldChange, KubeObject, ResourceKey } from '../model/index.js';
import { escapeSegment, isPlainObject } from '../model/index.js';

interface PauseSwitch {
  /** API group and kinds it applies to; `kinds` undefined: any kind of the group (or of any group when `group` is `*`). */
  group: string;
  kinds?: readonly string[];
  /** Only objects of these names, when set. */
  names?: readonly string[];
  path: string;
  /** The command that flips it, for the report. */
  command: string;
  /** What it did, after the object's name, for a title: `suspended`, `rollout paused`. */
  did: string;
  /** Whether a live value turns it on. */
  on: (value: unknown) => boolean;
  /** What it stops while on, in words. */
  stops: (key: ResourceKey, live: KubeObject) => string;
}

/** How a person keeps a switch: the comment command on the drift pull request, or their own commit. */
const DECIDE =
  '`/driftback allow <field> on <Kind/namespace/name> because …` on the drift pull request, or write it into Git';

const annotation = (key: string): string => `/metadata/annotations/${escapeSegment(key)}`;
const isTrue = (value: unknown): boolean => value === true || value === 'true';
const spec = (live: KubeObject): Record<string, unknown> => (isPlainObject(live.spec) ? live.spec : {});

function target(live: KubeObject): string {
  const ref = spec(live).scaleTargetRef;
  if (!isPlainObject(ref)) return 'its workload';
  return `${typeof ref.kind === 'string' ? ref.kind : 'Deployment'} ${String(ref.name)}`;
}

/**
 * The workloads that run GitOps reconcilers, by the name their install manifests give them: Flux's
 * kustomize-controller and helm-controller (Deployments), Argo CD's argocd-application-controller (a
 * StatefulSet since Argo CD 2.x, a Deployment in older installs).
 */
export const GITOPS_CONTROLLER_WORKLOADS = {
  'flux-kustomization': { kinds: ['Deployment'], name: 'kustomize-controller' },
  'flux-helmrelease': { kinds: ['Deployment'], name: 'helm-controller' },
  'argocd-application': { kinds: ['StatefulSet', 'Deployment'], name: 'argocd-application-controller' },
} as const;

const SWITCHES: readonly PauseSwitch[] = [
  {
    group: 'apps',
    kinds: ['Deployment', 'StatefulSet'],
    names: Object.values(GITOPS_CONTROLLER_WORKLOADS).map((workload) => workload.name),
    path: '/spec/replicas',
    command: 'kubectl scale … --replicas=0',
    did: 'scaled to 0',
    on: (value) => value === 0,
    stops: (key) =>
      key.name === GITOPS_CONTROLLER_WORKLOADS['argocd-application'].name
        ? `${key.name} runs no pod: Argo CD applies nothing in this cluster while it is at 0 replicas, whatever is merged (driftback alerts that it is not reconciling)`
        : `${key.name} runs no pod: nothing it reconciles is applied, whatever is merged (driftback alerts that it is not reconciling)`,
  },
  {
    group: 'batch',
    kinds: ['CronJob'],
    path: '/spec/suspend',
    command: 'kubectl patch cronjob … -p \'{"spec":{"suspend":true}}\'',
    did: 'suspended',
    on: isTrue,
    stops: (key, live) =>
      `CronJob ${key.name} starts no Jobs (schedule \`${String(spec(live).schedule)}\`): the ${key.name} job is not running`,
  },
  {
    group: 'apps',
    kinds: ['Deployment'],
    path: '/spec/paused',
    command: 'kubectl rollout pause',
    did: 'rollout paused',
    on: isTrue,
    stops: (key) =>
      `Deployment ${key.name} rolls out no change to its pod template: a new image or setting is not deployed`,
  },
  {
    group: 'argoproj.io',
    kinds: ['Rollout'],
    path: '/spec/paused',
    command: 'kubectl argo rollouts pause',
    did: 'paused',
    on: isTrue,
    stops: (key) =>
      `Rollout ${key.name} advances no step and rolls out no change to its pod template: a new image or setting is not deployed`,
  },
  {
    group: 'keda.sh',
    kinds: ['ScaledObject'],
    path: annotation('autoscaling.keda.sh/paused-replicas'),
    command: 'kubectl annotate scaledobject … autoscaling.keda.sh/paused-replicas=N',
    did: 'autoscaling paused',
    on: (value) => value !== undefined,
    stops: (_key, live) =>
      `KEDA holds ${target(live)} at ${String(live.metadata.annotations?.['autoscaling.keda.sh/paused-replicas'])} replicas and no longer autoscales it`,
  },
  {
    group: 'keda.sh',
    kinds: ['ScaledObject', 'ScaledJob'],
    path: annotation('autoscaling.keda.sh/paused'),
    command: 'kubectl annotate … autoscaling.keda.sh/paused=true',
    did: 'paused',
    on: isTrue,
    stops: (key, live) =>
      key.kind === 'ScaledJob'
        ? `KEDA starts no Jobs for ScaledJob ${key.name}, whatever its triggers say`
        : `KEDA no longer autoscales ${target(live)}: its replicas stay where they are`,
  },
  {
    group: '*',
    path: annotation('crossplane.io/paused'),
    command: 'kubectl annotate … crossplane.io/paused=true',
    did: 'reconciliation paused',
    on: isTrue,
    stops: (key) =>
      `Crossplane no longer reconciles ${key.kind} ${key.name}: changes to it are not applied to the external resource, and drift there is not corrected`,
  },
];

function applies(entry: PauseSwitch, key: ResourceKey): boolean {
  return (
    (entry.group === '*' || entry.group === key.group) &&
    (!entry.kinds || entry.kinds.includes(key.kind)) &&
    (!entry.names || entry.names.includes(key.name))
  );
}

function switchAt(path: string, key: ResourceKey): PauseSwitch | undefined {
  return SWITCHES.find((entry) => entry.path === path && applies(entry, key));
}

/** The switch a change flips (its own path, or a map of annotations added with one), or undefined. */
function flippedSwitch(change: Pick<FieldChange, 'path' | 'live'>, key: ResourceKey): PauseSwitch | undefined {
  const direct = switchAt(change.path, key);
  if (direct) return direct;
  if (change.path !== '/metadata/annotations' || !isPlainObject(change.live)) return undefined;
  const keys = Object.keys(change.live);
  const found = keys.map((name) => switchAt(`${change.path}/${escapeSegment(name)}`, key));
  return keys.length > 0 && found.every((entry) => entry !== undefined) ? found[0] : undefined;
}

/** An emergency switch a change flips, as the report and the decision issue show it. */
export interface FlippedSwitch {
  /** The command that flips it. */
  command: string;
  /** What it did, after the object's name: `suspended`, `rollout paused`. */
  did: string;
  /** On in live; false: turned off by hand while Git keeps it on. */
  on: boolean;
  /** What it stops while on, in words. */
  stops: string;
}

/** The emergency switch a change flips, or undefined when it flips none (or Git stopped declaring it). */
export function flippedSwitchOf(
  change: Pick<FieldChange, 'path' | 'live' | 'op' | 'desired'>,
  key: ResourceKey,
  live: KubeObject,
): FlippedSwitch | undefined {
  // A switch Git stopped declaring is Git's decision, applied at the next sync: not a hand flip.
  if (change.op === 'remove') return undefined;
  const flipped = flippedSwitch(change, key);
  if (!flipped) return undefined;
  const on = flipped.on(switchValue(flipped, live));
  // Off in live and off (or not declared) in Git: no switch was flipped (a controller scaled from 2 to 1,
  // a switch set back to its default by hand).
  if (!on && !flipped.on(change.desired)) return undefined;
  return { command: flipped.command, did: flipped.did, on, stops: flipped.stops(key, live) };
}

/**
 * The switch a live object holds on at `path` — its command and what it stops, in words — or undefined
 * (no switch there, or it is off). For an object no Git file declares: no `/driftback allow` to offer.
 */
export function switchOnAt(
  path: string,
  key: ResourceKey,
  live: KubeObject,
): { command: string; stops: string } | undefined {
  const found = switchAt(path, key);
  if (!found || !found.on(switchValue(found, live))) return undefined;
  return { command: found.command, stops: found.stops(key, live) };
}

function switchValue(flipped: PauseSwitch, live: KubeObject): unknown {
  return flipped.path.startsWith('/metadata/annotations/')
    ? live.metadata.annotations?.[flipped.path.slice('/metadata/annotations/'.length).replace('~1', '/')]
    : spec(live)[flipped.path.split('/')[2]!];
}

/**
 * Why a change to an emergency switch is reported and never codified, with what the switch stops while
 * it is on; undefined when the change touches no switch.
 */
export function emergencySwitchReason(
  change: Pick<FieldChange, 'path' | 'live' | 'op' | 'desired'>,
  key: ResourceKey,
  live: KubeObject,
): string | undefined {
  const flipped = flippedSwitchOf(change, key, live);
  if (!flipped) return undefined;
  if (!flipped.on)
    return `emergency switch turned off by hand (\`${flipped.command}\` undone) while Git keeps it on: never codified without a person's decision (${DECIDE})`;
  return (
    `emergency switch (\`${flipped.command}\`): ${flipped.stops}. Never codified as desired state without ` +
    `a person's decision: to keep it, ${DECIDE}; to end it, undo it in the cluster`
  );
}
