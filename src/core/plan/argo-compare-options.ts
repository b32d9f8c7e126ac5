// What an Argo CD instance's `resource.compareoptions` (argocd-cm) makes its comparison show, where
// driftback's own diff says nothing: status and aggregated rules are never drift here (the status is the
// controller's, aggregated rules the clusterrole-aggregation-controller's), but Argo CD compares them
// unless told not to (util/settings/settings.go GetResourceOverrides; gitops-engine pkg/diff
// `IgnoreAggregatedRoles`). A manifest that declares `status` on a kind whose status the instance compares
// (`ignoreResourceStatusField: crd`, the default, compares every kind but CustomResourceDefinitions; `off`
// every kind), or `rules` on an aggregated ClusterRole while `ignoreAggregatedRoles` is false, leaves the
// Application OutOfSync whatever the sync does. The plan says so once per object, naming the instance.
import { stableJson } from '../classify/gate.js';
import {
  isPlainObject,
  keyId,
  keyOf,
  type DesiredObject,
  type KubeObject,
  type PlanWarning,
  type ResourceKey,
} from '../model/index.js';
import type { SourceResult } from '../render/source-worklist.js';
import { argoInstanceFor, readArgoInstances, readArgoSettings } from '../sources/argocd-settings.js';
import { DEFAULT_ARGO_COMPARE_OPTIONS, sourceName, type ArgoTracking } from '../sources/identity.js';

interface Compared {
  app: string;
  settings: ArgoTracking;
  id: ResourceKey;
  desired: DesiredObject;
  live: KubeObject;
}

function describe(id: ResourceKey): string {
  return `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
}

function where(settings: ArgoTracking): string {
  return settings.from === 'argocd-cm'
    ? `argocd-cm in ${settings.controlPlaneNamespace}`
    : 'argocd-cm not in the snapshot: Argo CD’s defaults';
}

/** Whether the instance ignores this object's status (`all`, or `crd` for a CustomResourceDefinition). */
function statusIgnored(settings: ArgoTracking, id: ResourceKey): boolean {
  const field = (settings.compareOptions ?? DEFAULT_ARGO_COMPARE_OPTIONS).ignoreResourceStatusField;
  if (field === 'all') return true;
  return field === 'crd' && id.group === 'apiextensions.k8s.io' && id.kind === 'CustomResourceDefinition';
}

/** The live values of the keys Git declares, as Argo CD's comparison reads them. */
function declaredPart(declared: Record<string, unknown>, live: unknown): Record<string, unknown> {
  const side = isPlainObject(live) ? live : {};
  return Object.fromEntries(Object.keys(declared).map((key) => [key, side[key]]));
}

function statusWarning({ app, settings, id, desired, live }: Compared): PlanWarning[] {
  const status = desired.object.status;
  if (!isPlainObject(status) || Object.keys(status).length === 0 || statusIgnored(settings, id)) return [];
  if (stableJson(declaredPart(status, live.status)) === stableJson(status)) return [];
  const field = (settings.compareOptions ?? DEFAULT_ARGO_COMPARE_OPTIONS).ignoreResourceStatusField;
  const message =
    `${describe(id)} declares \`status\` in Git, and Argo CD compares it (${where(settings)}: ` +
    `resource.compareoptions ignoreResourceStatusField: ${field}): the live status differs, so Application ` +
    `${app} stays OutOfSync after its sync — the status is the controller's to write. Remove \`status\` from ` +
    'the manifest, or set `ignoreResourceStatusField: all`.';
  return [{ code: 'argocd-compare-option', id, path: '/status', message }];
}

function aggregatedRulesWarning({ app, settings, id, desired, live }: Compared): PlanWarning[] {
  const object = desired.object;
  if (id.group !== 'rbac.authorization.k8s.io' || id.kind !== 'ClusterRole' || !object.aggregationRule) return [];
  if ((settings.compareOptions ?? DEFAULT_ARGO_COMPARE_OPTIONS).ignoreAggregatedRoles || !('rules' in object))
    return [];
  if (stableJson(object.rules ?? []) === stableJson(live.rules ?? [])) return [];
  const message =
    `${describe(id)} aggregates its rules (aggregationRule) and Git declares \`rules\`: Argo CD compares them ` +
    `(${where(settings)}: resource.compareoptions ignoreAggregatedRoles is false), so Application ${app} ` +
    'shows OutOfSync while the aggregated rules differ, and each sync writes Git’s rules until the ' +
    'clusterrole-aggregation-controller fills them in again. Set `ignoreAggregatedRoles: true`, or remove ' +
    '`rules` from the manifest.';
  return [{ code: 'argocd-compare-option', id, path: '/rules', message }];
}

/** One warning per object an Argo CD Application applies whose comparison its compare options keep OutOfSync. */
export function argoCompareOptionWarnings(
  sources: readonly SourceResult[],
  head: readonly DesiredObject[],
  live: readonly KubeObject[],
): PlanWarning[] {
  const argo = sources.filter((r) => r.source.id.controller === 'argocd' && r.scope === 'rendered');
  if (argo.length === 0) return [];
  const instances = readArgoInstances(live);
  const fallback = readArgoSettings(live);
  const headById = new Map(head.map((desired) => [keyId(desired.key), desired]));
  const liveById = new Map(live.map((object) => [keyId(keyOf(object)), object]));
  return argo.flatMap((result) => {
    const settings = argoInstanceFor(instances, result.source.id.namespace) ?? fallback;
    const app = sourceName(result.source.id);
    return result.objects.flatMap((id) => {
      const desired = headById.get(keyId(id));
      const object = liveById.get(keyId(id));
      if (!desired || !object) return [];
      const compared = { app, settings, id, desired, live: object };
      return [...statusWarning(compared), ...aggregatedRulesWarning(compared)];
    });
  });
}
