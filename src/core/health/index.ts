// Health of live objects, by the rules Argo CD's built-in checks (gitops-engine pkg/health) use.
//
// Kinds without a rule of their own: when the object carries kstatus conditions (Ready, Stalled,
// Reconciling) they decide; otherwise the object is Healthy ("it exists"). Argo CD gives such
// objects no health at all and leaves them out of an application's health; driftback reports
// Healthy so that ConfigMaps, Secrets and RBAC objects never look alarming. `Unknown` is kept for
// objects whose status cannot be read (a Pod with no phase, an Application with no health).
import { groupOf, type Health, type KubeObject } from '../model/index.js';
import { apiServiceHealth } from './apiservice.js';
import { horizontalPodAutoscalerHealth } from './autoscaler.js';
import { cronJobHealth, jobHealth } from './batch.js';
import { readinessConditionsHealth } from './conditions.js';
import { ARGO_GROUP, argoApplicationHealth, FLUX_GROUP_SUFFIX, fluxHealth } from './gitops.js';
import { ingressHealth, serviceHealth } from './network.js';
import { podHealth } from './pod.js';
import { persistentVolumeClaimHealth } from './storage.js';
import { daemonSetHealth, deploymentHealth, replicaSetHealth, statefulSetHealth } from './workloads.js';

export { reconcilerStateOf } from './reconciler.js';

type HealthRule = (live: KubeObject) => Health;

/** Rules by `group/Kind`; any version of the group (extensions/v1beta1 Deployments included). */
const RULES: Record<string, HealthRule> = {
  'apps/Deployment': deploymentHealth,
  'extensions/Deployment': deploymentHealth,
  'apps/StatefulSet': statefulSetHealth,
  'apps/DaemonSet': daemonSetHealth,
  'extensions/DaemonSet': daemonSetHealth,
  'apps/ReplicaSet': replicaSetHealth,
  'extensions/ReplicaSet': replicaSetHealth,
  '/Pod': podHealth,
  '/Service': serviceHealth,
  '/PersistentVolumeClaim': persistentVolumeClaimHealth,
  'networking.k8s.io/Ingress': ingressHealth,
  'extensions/Ingress': ingressHealth,
  'batch/Job': jobHealth,
  'batch/CronJob': cronJobHealth,
  'autoscaling/HorizontalPodAutoscaler': horizontalPodAutoscalerHealth,
  'apiregistration.k8s.io/APIService': apiServiceHealth,
  [`${ARGO_GROUP}/Application`]: argoApplicationHealth,
};

function ruleFor(live: KubeObject): HealthRule | undefined {
  const group = groupOf(live.apiVersion ?? '');
  if (group.endsWith(FLUX_GROUP_SUFFIX)) return fluxHealth;
  return RULES[`${group}/${live.kind}`];
}

export function assessHealth(live: KubeObject): Health {
  // An object being deleted is on its way out, whatever its status says.
  if (live.metadata?.deletionTimestamp) return { status: 'Progressing', message: 'Pending deletion' };
  const rule = ruleFor(live);
  const health = rule ? rule(live) : (readinessConditionsHealth(live) ?? { status: 'Healthy' });
  return health.message ? health : { status: health.status };
}
