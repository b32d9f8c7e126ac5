// HorizontalPodAutoscaler health from its conditions: status.conditions (autoscaling/v2) or the
// `autoscaling.alpha.kubernetes.io/conditions` annotation (autoscaling/v1 objects), as Argo CD judges
// it (argoproj/argo-cd gitops-engine/pkg/health/health_hpa.go): the first condition that is degraded (by
// type and reason) or healthy (`AbleToScale` or `ScalingLimited` whose status is `True`) decides.
import type { Health, KubeObject } from '../model/index.js';
import { conditionsOf, statusConditions, type Condition } from './read.js';

const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';

const DEGRADED: Array<[type: string, reason: string]> = [
  ['AbleToScale', 'FailedGetScale'],
  ['AbleToScale', 'FailedUpdateScale'],
  ['ScalingActive', 'FailedGetResourceMetric'],
  ['ScalingActive', 'InvalidSelector'],
];

/** Condition types that say the HPA works, when their status is `True`. */
const HEALTHY_TYPES = ['AbleToScale', 'ScalingLimited'];

const matches = (condition: Condition, list: Array<[string, string]>): boolean =>
  list.some(([type, reason]) => condition.type === type && condition.reason === reason);

function annotationConditions(obj: KubeObject): Condition[] {
  const text = obj.metadata.annotations?.[CONDITIONS_ANNOTATION];
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? conditionsOf(parsed) : [];
  } catch {
    return [];
  }
}

export function horizontalPodAutoscalerHealth(obj: KubeObject): Health {
  const fromStatus = statusConditions(obj);
  const conditions = fromStatus.length > 0 ? fromStatus : annotationConditions(obj);
  for (const condition of conditions) {
    if (matches(condition, DEGRADED)) return { status: 'Degraded', message: condition.message };
    if (HEALTHY_TYPES.includes(condition.type) && condition.status === 'True')
      return { status: 'Healthy', message: condition.message };
  }
  return { status: 'Progressing', message: 'Waiting to Autoscale' };
}
