// An aggregated APIService is healthy when its Available condition is True.
import type { Health, KubeObject } from '../model/index.js';
import { describeCondition, findCondition, statusConditions } from './read.js';

export function apiServiceHealth(obj: KubeObject): Health {
  const available = findCondition(statusConditions(obj), 'Available');
  if (!available) return { status: 'Progressing', message: 'Waiting to be processed' };
  return { status: available.status === 'True' ? 'Healthy' : 'Progressing', message: describeCondition(available) };
}
