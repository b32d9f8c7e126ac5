// Argo CD ApplicationSets (argoproj.io/v1alpha1): the controller writes one Application per set of
// generator parameters and makes itself that Application's controller owner
// (applicationset/controllers/applicationset_controller.go: controllerutil.SetControllerReference).
import { isPlainObject, type KubeObject } from '../model/index.js';
import { isArgoApplication } from './argocd.js';
import { ARGO_APPLICATION_GROUP } from './identity.js';

export function isApplicationSet(obj: KubeObject): boolean {
  return obj.kind === 'ApplicationSet' && (obj.apiVersion ?? '').startsWith(`${ARGO_APPLICATION_GROUP}/`);
}

/**
 * An Application an ApplicationSet generated: controller-owned, yet a source of its own (what it deploys
 * is rendered from its spec), so the agent keeps it where it drops other controller-owned objects.
 */
export function isGeneratedApplication(obj: KubeObject): boolean {
  if (!isArgoApplication(obj)) return false;
  const refs = obj.metadata?.ownerReferences;
  return (
    Array.isArray(refs) &&
    refs.some(
      (ref) =>
        isPlainObject(ref) &&
        ref.controller === true &&
        ref.kind === 'ApplicationSet' &&
        String(ref.apiVersion ?? '').startsWith(`${ARGO_APPLICATION_GROUP}/`),
    )
  );
}
