// Argo CD ApplicationSets (argoproj.io/v1alpha1): the controller writes one Application per set of
// generator parameters and makes itself that Application's controller owner
// (applicationset/controllers/applicationset_controller.go: controllerutil.SetControllerReference).
import { isPlainObject, type KubeObject } from '../model/index.js';
import { isArgoApplication } from './argocd.js';
import { ARGO_APPLICATION_GROUP, namespaceListNames } from './identity.js';

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

function isConfigMap(obj: KubeObject, name: string): boolean {
  return obj.kind === 'ConfigMap' && obj.apiVersion === 'v1' && obj.metadata?.name === name;
}

/** The data of the instance's `argocd-cmd-params-cm` (in `namespace`), empty when the snapshot has none. */
function cmdParams(live: readonly KubeObject[], namespace: string): Record<string, unknown> {
  const cm = live.find((obj) => isConfigMap(obj, 'argocd-cmd-params-cm') && obj.metadata?.namespace === namespace);
  return cm && isPlainObject(cm.data) ? cm.data : {};
}

/**
 * The namespace of the Argo CD instance whose ApplicationSet controller reconciles `appset`: the
 * controller runs in the instance's namespace and reads ApplicationSets there and in the namespaces its
 * `applicationsetcontroller.namespaces` names (cmd/argocd-applicationset-controller: the namespace is
 * appended to that list; utils.IsNamespaceAllowed). The instances are the namespaces of the snapshot's
 * `argocd-cm` and `argocd-cmd-params-cm`; with none, the ApplicationSet's own namespace is taken as the
 * instance's. Undefined: the snapshot shows instances and none reconciles that namespace.
 */
export function applicationSetControllerNamespace(appset: KubeObject, live: readonly KubeObject[]): string | undefined {
  const own = appset.metadata?.namespace ?? '';
  const instances = new Set(
    live
      .filter((obj) => isConfigMap(obj, 'argocd-cm') || isConfigMap(obj, 'argocd-cmd-params-cm'))
      .map((obj) => obj.metadata?.namespace ?? ''),
  );
  if (instances.size === 0 || instances.has(own)) return own;
  return [...instances].sort().find((namespace) => {
    const listed = cmdParams(live, namespace)['applicationsetcontroller.namespaces'];
    const list = typeof listed === 'string' ? listed.split(',').map((entry) => entry.trim()) : [];
    return namespaceListNames(
      list.filter((entry) => entry !== ''),
      own,
    );
  });
}

/**
 * The policy the controller applies to an ApplicationSet's Applications (applicationset/utils/policy.go
 * DefaultPolicy): the controller's `applicationsetcontroller.policy` (argocd-cmd-params-cm of the
 * instance that reconciles it; empty = `sync`), overridden by the ApplicationSet's
 * `syncPolicy.applicationsSync` when overrides are allowed (`applicationsetcontroller.enable.policy.override`,
 * by default only when no controller policy is set).
 */
export function applicationsSyncPolicy(appset: KubeObject, live: readonly KubeObject[]): ApplicationsSyncPolicy {
  const data = cmdParams(live, applicationSetControllerNamespace(appset, live) ?? '');
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
