// What an Argo CD AppProject lets its Applications deploy, as Argo CD decides it
// (pkg/apis/application/v1alpha1/app_project_types.go: IsSourcePermitted, isDestinationMatched,
// IsGroupKindPermitted; controller/sync.go's permission validator). A resource the project does not
// permit is refused at sync: the plan says "refused by Argo CD", never "create" or "update". The
// AppProject is read from head when the repository declares it, else from the snapshot; an
// Application whose project is in neither is not checked.
import { compileArgoGlob, compileConfigGlobs } from '../patterns/index.js';
import {
  isPlainObject,
  keyId,
  type DesiredObject,
  type KubeObject,
  type Plan,
  type PlanWarning,
  type ResourceKey,
} from '../model/index.js';
import type { SourceResult } from '../render/source-worklist.js';
import { sourceName } from '../sources/identity.js';
import type { ArgoTransforms } from '../sources/index.js';

interface GroupKind {
  group: string;
  kind: string;
}

/** gobwas glob without separators (destinations), or with `/` (sourceRepos); a leading `!` denies. */
function globMatch(pattern: string, value: string, separators: boolean): boolean {
  const deny = pattern.startsWith('!');
  const body = deny ? pattern.slice(1) : pattern;
  const matches =
    body === '*' ||
    (separators
      ? compileConfigGlobs([body]).matches.test(value)
      : ((compiled) => compiled.ok && compiled.pattern.test(value))(compileArgoGlob(body)));
  return deny ? !matches : matches;
}

/** git.NormalizeGitURL, as far as URLs in one repository's manifests differ: case, `.git`, a trailing `/`. */
function normalizeGitUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function groupKinds(value: unknown): GroupKind[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter(isPlainObject)
    .map((item) => ({ group: String(item.group ?? ''), kind: String(item.kind ?? '') }));
}

function inList(res: GroupKind, list: readonly GroupKind[] | undefined): boolean {
  return (list ?? []).some((item) => globMatch(item.kind, res.kind, false) && globMatch(item.group, res.group, false));
}

/** Why a project refuses a resource of this group and kind, or undefined (IsGroupKindPermitted). */
function groupKindRefusal(spec: Record<string, unknown>, key: ResourceKey, project: string): string | undefined {
  const res = { group: key.group, kind: key.kind };
  const namespaced = key.namespace !== '';
  const allow = groupKinds(spec[namespaced ? 'namespaceResourceWhitelist' : 'clusterResourceWhitelist']);
  const deny = groupKinds(spec[namespaced ? 'namespaceResourceBlacklist' : 'clusterResourceBlacklist']);
  // An absent namespaced whitelist permits every kind; an absent or empty cluster one permits none.
  const listed = namespaced ? allow === undefined || (allow.length > 0 && inList(res, allow)) : inList(res, allow);
  if (listed && !inList(res, deny)) return undefined;
  const list = namespaced ? 'namespaceResource' : 'clusterResource';
  const why = listed ? `is in its ${list}Blacklist` : `is not in its ${list}Whitelist`;
  return `resource ${key.group}:${key.kind} is not permitted in project ${project} (${key.group || 'core'}/${key.kind} ${why})`;
}

/** Whether the destination (server or name, and the resource's namespace) is a project destination. */
function destinationPermitted(spec: Record<string, unknown>, destination: ArgoTransforms['destination'], ns: string) {
  let any = false;
  let denied = false;
  for (const item of Array.isArray(spec.destinations) ? spec.destinations.filter(isPlainObject) : []) {
    const text = (value: unknown): string => (typeof value === 'string' ? value : '');
    const name = !!destination.name && globMatch(text(item.name), destination.name, false);
    const server = !!destination.server && globMatch(text(item.server), destination.server, false);
    const namespace = globMatch(text(item.namespace), ns, false);
    if ((server || name) && namespace) any = true;
    else if (
      (!name && text(item.name).startsWith('!')) ||
      (!server && text(item.server).startsWith('!')) ||
      (!namespace && text(item.namespace).startsWith('!'))
    )
      denied = true;
  }
  return any && !denied;
}

function sourcePermitted(spec: Record<string, unknown>, repoURL: string): boolean {
  const url = normalizeGitUrl(repoURL);
  let any = false;
  for (const pattern of strings(spec.sourceRepos)) {
    const deny = pattern.startsWith('!');
    const matched = globMatch(`${deny ? '!' : ''}${normalizeGitUrl(deny ? pattern.slice(1) : pattern)}`, url, true);
    if (matched) any = true;
    else if (deny) return false;
  }
  return any;
}

/** The AppProject an Application names: head's declaration first, then the snapshot's; the Application's namespace first. */
function projectOf(name: string, namespace: string, objects: readonly KubeObject[]): KubeObject | undefined {
  const projects = objects.filter(
    (object) =>
      object.kind === 'AppProject' && object.apiVersion?.startsWith('argoproj.io/') && object.metadata.name === name,
  );
  return projects.find((project) => project.metadata.namespace === namespace) ?? projects[0];
}

/** Why Argo CD refuses one object of an Application, or undefined. */
function refusal(spec: Record<string, unknown>, project: string, argo: ArgoTransforms, key: ResourceKey) {
  const kind = groupKindRefusal(spec, key, project);
  if (kind) return kind;
  if (key.namespace && !destinationPermitted(spec, argo.destination, key.namespace))
    return `namespace ${key.namespace} is not permitted in project '${project}' (not one of its destinations)`;
  return undefined;
}

/** Objects of each rendered Application its AppProject does not permit, with Argo CD's reason. */
function refusals(sources: readonly SourceResult[], objects: readonly KubeObject[]): Map<string, string> {
  const refused = new Map<string, string>();
  for (const { source, scope, objects: keys } of sources) {
    if (scope !== 'rendered' || source.transforms.controller !== 'argocd') continue;
    const argo = source.transforms;
    const project = argo.project ?? 'default';
    const found = projectOf(project, source.id.namespace, objects);
    if (!found || !isPlainObject(found.spec)) continue;
    const spec = found.spec;
    const app = `Application ${sourceName(source.id)}`;
    const repoURL = source.origin.type === 'git' ? source.origin.repoURL : '';
    const wholeApp = sourcePermitted(spec, repoURL)
      ? undefined
      : `application repo ${repoURL} is not permitted in project '${project}' (sourceRepos)`;
    for (const key of keys) {
      const why = wholeApp ?? refusal(spec, project, argo, key);
      if (why && !refused.has(keyId(key))) refused.set(keyId(key), `${app}: ${why}`);
    }
  }
  return refused;
}

/**
 * The plan without what Argo CD refuses to sync: each such create or update becomes a
 * `refused-by-argocd` warning that names the Application, the project and the rule.
 */
export function refuseUnpermitted(
  plan: Plan,
  sources: readonly SourceResult[],
  head: readonly DesiredObject[],
  live: readonly KubeObject[],
): Plan {
  const refused = refusals(sources, [...head.map((desired) => desired.object), ...live]);
  if (refused.size === 0) return plan;
  const warnings: PlanWarning[] = [];
  const keep = (entries: Plan['create'], verb: string) =>
    entries.filter((entry) => {
      const why = refused.get(keyId(entry.id));
      if (why === undefined) return true;
      warnings.push({ code: 'refused-by-argocd', id: entry.id, message: `Not ${verb}d: refused by Argo CD. ${why}.` });
      return false;
    });
  const create = keep(plan.create, 'create');
  const update = keep(plan.update, 'update');
  return { ...plan, create, update, warnings: [...plan.warnings, ...warnings] };
}
