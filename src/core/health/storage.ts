// PersistentVolumeClaim health by phase: Bound is healthy, Pending is on its way, Lost is data gone.
import type { Health, KubeObject } from '../model/index.js';
import { stringAt } from './read.js';

export function persistentVolumeClaimHealth(obj: KubeObject): Health {
  const phase = stringAt(obj, 'status', 'phase');
  switch (phase) {
    case 'Bound':
      return { status: 'Healthy' };
    case 'Pending':
      return { status: 'Progressing', message: 'Waiting for the claim to be bound' };
    case 'Lost':
      return { status: 'Degraded', message: 'The volume bound to this claim is lost' };
    default:
      return { status: 'Unknown', message: phase ? `Unexpected phase ${phase}` : 'No phase reported' };
  }
}
