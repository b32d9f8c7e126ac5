// Discovery: every API group at its preferred version (`/api`, `/apis`, `/apis/<g>/<v>`), keeping
// the resources that can be listed. Subresources (`deployments/scale`) are skipped. A group whose
// discovery fails (an aggregated API that is down) is recorded and the run goes on without it.
import { isPlainObject } from '../core/model/index.js';
import type { KubeTransport } from './kube-transport.js';
import type { ApiResource, ListError } from './types.js';

export interface Discovered {
  resources: ApiResource[];
  errors: ListError[];
  gitVersion?: string;
}

/**
 * `skipGroup` names groups left out of the run entirely: they are not asked for, so an aggregated
 * API that is down (metrics.k8s.io) cannot make a run slow or incomplete when it is excluded anyway.
 */
export async function discoverResources(
  transport: KubeTransport,
  skipGroup: (group: string) => boolean = () => false,
): Promise<Discovered> {
  const groupVersions = [...(await coreGroupVersion(transport)), ...(await groupVersionsOf(transport, skipGroup))];
  const resources: ApiResource[] = [];
  const errors: ListError[] = [];
  for (const gv of groupVersions) {
    const groupVersion = gv.group ? `${gv.group}/${gv.version}` : gv.version;
    const list = await transport.get(gv.path);
    if (list.type !== 'ok') {
      errors.push({
        resource: groupVersion,
        group: gv.group,
        kind: '',
        reason: list.type === 'status' ? list.reason : list.reason,
        message: `discovery failed: ${describe(list)}`,
      });
      continue;
    }
    resources.push(...listableResources(list.body, gv.group, gv.version));
  }
  const version = await transport.get('/version');
  const gitVersion =
    version.type === 'ok' && isPlainObject(version.body) && typeof version.body.gitVersion === 'string'
      ? version.body.gitVersion
      : undefined;
  return { resources, errors, gitVersion };
}

type GroupVersion = { group: string; version: string; path: string };

/** The core group's version (`/api`); a server that does not answer it cannot be snapshotted at all. */
async function coreGroupVersion(transport: KubeTransport): Promise<GroupVersion[]> {
  const core = await transport.get('/api');
  if (core.type !== 'ok')
    throw new Error(`discovery of ${transport.server}/api failed: ${describe(core)}${hint(core)}`);
  const coreVersions =
    isPlainObject(core.body) && Array.isArray(core.body.versions) ? (core.body.versions as string[]) : [];
  // The core group has one version in practice; `v1` is what every server has served since 1.0.
  const coreVersion = coreVersions.includes('v1') ? 'v1' : coreVersions[0];
  return coreVersion ? [{ group: '', version: coreVersion, path: `/api/${coreVersion}` }] : [];
}

/** Each named group (`/apis`) at its preferred version, the skipped groups left out. */
async function groupVersionsOf(
  transport: KubeTransport,
  skipGroup: (group: string) => boolean,
): Promise<GroupVersion[]> {
  const apis = await transport.get('/apis');
  if (apis.type !== 'ok') throw new Error(`discovery of ${transport.server}/apis failed: ${describe(apis)}`);
  const groups = isPlainObject(apis.body) && Array.isArray(apis.body.groups) ? (apis.body.groups as unknown[]) : [];
  const out: GroupVersion[] = [];
  for (const group of groups) {
    if (!isPlainObject(group) || typeof group.name !== 'string') continue;
    const preferred = isPlainObject(group.preferredVersion) ? group.preferredVersion : undefined;
    const version = typeof preferred?.version === 'string' ? preferred.version : undefined;
    if (version && !skipGroup(group.name))
      out.push({ group: group.name, version, path: `/apis/${group.name}/${version}` });
  }
  return out;
}

/** The resources of one APIResourceList that have the `list` verb, subresources left out. */
export function listableResources(body: unknown, group: string, version: string): ApiResource[] {
  const items = isPlainObject(body) && Array.isArray(body.resources) ? (body.resources as unknown[]) : [];
  const out: ApiResource[] = [];
  for (const item of items) {
    if (!isPlainObject(item) || typeof item.name !== 'string' || typeof item.kind !== 'string') continue;
    if (item.name.includes('/')) continue;
    if (!Array.isArray(item.verbs) || !item.verbs.includes('list')) continue;
    out.push({
      group,
      version,
      groupVersion: group ? `${group}/${version}` : version,
      resource: item.name,
      kind: item.kind,
      namespaced: item.namespaced === true,
    });
  }
  return out;
}

export function describe(response: { type: string; reason?: string; message?: string; code?: number }): string {
  return response.code
    ? `${response.code} ${response.reason}: ${response.message}`
    : `${response.reason}: ${response.message}`;
}

/** What to check when the very first request fails: credentials, or the address. */
function hint(response: { type: string; code?: number }): string {
  if (response.type === 'status' && response.code === 401)
    return ' (the cluster refused the credentials: check the kubeconfig user, or the service account token mounted in the Pod)';
  if (response.type === 'status' && response.code === 403)
    return ' (the credentials may not read discovery: bind the system:discovery ClusterRole, or use deploy/agent)';
  if (response.type === 'unreachable')
    return ' (check the server address in the kubeconfig, and that a NetworkPolicy allows egress to the API server)';
  return '';
}
