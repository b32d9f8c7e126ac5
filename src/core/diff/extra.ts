// Live objects that Git does not declare: which are hand-made (`extra`) and which the cluster made for
// itself (noise: kube-root-ca.crt, default ServiceAccounts, anything a controller created or owns).
import type { KubeObject } from '../model/index.js';
import { isClusterMade, isControllerOwned, type CreatedBy } from '../k8s/index.js';

/** Whether a live object without a desired counterpart is noise rather than drift. */
export function isControllerMade(live: KubeObject, createdBy: CreatedBy | undefined): boolean {
  return isControllerOwned(live) || isClusterMade(live) || createdBy?.cause === 'controller';
}
