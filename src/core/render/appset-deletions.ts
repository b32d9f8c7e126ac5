// What the ApplicationSet controller does to the Applications it generated before and does not generate
// now (applicationset_controller.go deleteInCluster): under a policy that allows deletion (`sync`,
// `create-delete`) it deletes them, and Argo CD's application controller then deletes what each deployed
// when it carries the resources finalizer — the one the ApplicationSet puts on every Application unless
// `syncPolicy.preserveResourcesOnDeletion` is set or the template names finalizers of its own
// (utils.go RenderTemplateParams). Under `create-only` / `create-update` they stay. Under a policy
// that allows no update (`create-only`, `create-delete`) an Application that exists keeps its live spec.
import type { KubeObject } from '../model/index.js';
import {
  applicationsSyncPolicy,
  ARGO_RESOURCES_FINALIZER,
  isGeneratedBy,
  type ApplicationsSyncPolicy,
} from '../sources/index.js';

export interface RemovedApplication {
  /** The live Application the ApplicationSet no longer generates. */
  application: KubeObject;
  /** Whether the controller deletes it (its policy allows deletion). */
  deleted: boolean;
  /** Whether deleting it deletes what it deployed (it carries the resources finalizer). */
  cascade: boolean;
  /** What happens, for the plan. */
  reason: string;
}

export interface GeneratedFate {
  policy: ApplicationsSyncPolicy;
  removed: RemovedApplication[];
  /** Names of generated Applications that exist and that the policy does not update: their live spec stands. */
  keptAsLive: Set<string>;
}

function hasResourcesFinalizer(application: KubeObject): boolean {
  const finalizers = application.metadata?.finalizers;
  return (
    Array.isArray(finalizers) &&
    finalizers.some((f) => f === ARGO_RESOURCES_FINALIZER || String(f).startsWith(`${ARGO_RESOURCES_FINALIZER}/`))
  );
}

function removedReason(appset: string, application: string, policy: ApplicationsSyncPolicy, cascade: boolean): string {
  const gone = `ApplicationSet ${appset} no longer generates Application ${application}`;
  if (policy === 'create-only' || policy === 'create-update')
    return `${gone}; its applications sync policy ${policy} never deletes, so it stays and keeps deploying this`;
  if (cascade) return `${gone}: the controller deletes it, and with it (${ARGO_RESOURCES_FINALIZER}) what it deployed`;
  return (
    `${gone}: the controller deletes it without the resources finalizer (syncPolicy.preserveResourcesOnDeletion), ` +
    'so this stays in the cluster, managed by no Application'
  );
}

/** The fate of the live Applications an ApplicationSet generated, given what it generates now. */
export function generatedFate(
  appset: KubeObject,
  generated: readonly KubeObject[],
  live: readonly KubeObject[],
): GeneratedFate {
  const namespace = appset.metadata?.namespace ?? '';
  const name = appset.metadata?.name ?? '';
  const policy = applicationsSyncPolicy(appset, live);
  const current = live.filter((obj) => isGeneratedBy(obj, namespace, name));
  const names = new Set(generated.map((application) => application.metadata.name ?? ''));
  const removed = current
    .filter((application) => !names.has(application.metadata.name ?? ''))
    .map((application) => {
      const deleted = policy === 'sync' || policy === 'create-delete';
      const cascade = deleted && hasResourcesFinalizer(application);
      const reason = removedReason(
        `${namespace}/${name}`,
        `${namespace}/${application.metadata.name}`,
        policy,
        cascade,
      );
      return { application, deleted, cascade, reason };
    });
  const updates = policy === 'sync' || policy === 'create-update';
  const keptAsLive = new Set(
    updates ? [] : current.map((application) => application.metadata.name ?? '').filter((n) => names.has(n)),
  );
  return { policy, removed, keptAsLive };
}
