// Health of live objects (Argo CD's rules). Placeholder until the health rules land.
import type { Health, KubeObject } from '../model/index.js';

export function assessHealth(_live: KubeObject): Health {
  return { status: 'Unknown' };
}
