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

/** Whether `obj` is an Application that the ApplicationSet `namespace/name` controls (its `.metadata.controller` index). */
export function isGeneratedBy(obj: KubeObject, namespace: string, name: string): boolean {
  if (!isGeneratedApplication(obj) || (obj.metadata?.namespace ?? '') !== namespace) return false;
  return (obj.metadata?.ownerReferences ?? []).some(
    (ref) => isPlainObject(ref) && ref.controller === true && ref.kind === 'ApplicationSet' && ref.name === name,
  );
}

export type ApplicationsSyncPolicy = 'sync' | 'create-only' | 'create-update' | 'create-delete';
const POLICIES: readonly string[] = ['sync', 'create-only', 'create-update', 'create-delete'];

/**
 * The policy the controller applies to an ApplicationSet's Applications (applicationset/utils/policy.go
 * DefaultPolicy): the controller's `applicationsetcontroller.policy` (argocd-cmd-params-cm; empty =
 * `sync`), overridden by the ApplicationSet's `syncPolicy.applicationsSync` when overrides are allowed
 * (`applicationsetcontroller.enable.policy.override`, by default only when no controller policy is set).
 */
export function applicationsSyncPolicy(appset: KubeObject, live: readonly KubeObject[]): ApplicationsSyncPolicy {
  const namespace = appset.metadata?.namespace ?? '';
  const params = live.filter(
    (obj) => obj.kind === 'ConfigMap' && obj.apiVersion === 'v1' && obj.metadata?.name === 'argocd-cmd-params-cm',
  );
  const cm = params.find((obj) => obj.metadata?.namespace === namespace) ?? params[0];
  const data = cm && isPlainObject(cm.data) ? cm.data : {};
  const controller =
    typeof data['applicationsetcontroller.policy'] === 'string' ? data['applicationsetcontroller.policy'] : '';
  const overrideSetting = data['applicationsetcontroller.enable.policy.override'];
  const setting = typeof overrideSetting === 'string' ? overrideSetting.toLowerCase() : '';
  const override = setting === 'true' || (setting !== 'false' && controller === '');
  const spec = isPlainObject(appset.spec) ? appset.spec : {};
  const own = isPlainObject(spec.syncPolicy) ? spec.syncPolicy.applicationsSync : undefined;
  if (override && typeof own === 'string' && POLICIES.includes(own)) return own as ApplicationsSyncPolicy;
  return POLICIES.includes(controller) ? (controller as ApplicationsSyncPolicy) : 'sync';
}
