// An Argo CD Application with automated sync and no self-heal syncs when a new commit of its source
// appears and it is OutOfSync (controller/appcontroller.go `autoSync`: once per commit and
// parameters); hand changes on the fields Git declares keep it OutOfSync, so merging any pull
// request — even one that does not touch the Application's files — re-syncs it and reverts them,
// unless its `argocd.argoproj.io/manifest-generate-paths` leaves the merged files out
// (util/app/path/path.go `GetAppRefreshPaths`, `AppFilesHaveChanged`). The plan says so per Application.
import {
  keyId,
  type DesiredObject,
  type FieldChange,
  type KubeObject,
  type Plan,
  type PlanWarning,
} from '../model/index.js';
import { compileConfigGlobs } from '../patterns/index.js';
import { ARGO_GENERATE_PATHS } from '../ownership/next-move.js';
import type { SourceResult } from '../render/source-worklist.js';
import { sourceName } from '../sources/identity.js';
import { at, field, shown } from './entry-warnings.js';
import { imageUpdaterOwner, imageUpdaterReason, imageUpdaterScopes } from '../render/argocd-image-updater.js';

/** At most this many hand changes are named per Application; the rest are counted. */
const NAMED = 10;

export interface ResyncInput {
  plan: Plan;
  sources: readonly SourceResult[];
  /** Head's objects (the Applications' annotations as they will be) and the live ones. */
  head: readonly DesiredObject[];
  live: readonly KubeObject[];
  /** The files the pull request changes; undefined when not known (every Application re-syncs). */
  changed?: readonly string[];
}

function applicationObject(input: ResyncInput, result: SourceResult): KubeObject | undefined {
  const { namespace, name } = result.source.id;
  const isApp = (o: KubeObject) =>
    o.kind === 'Application' && o.metadata.name === name && (o.metadata.namespace ?? '') === namespace;
  return input.head.find((d) => isApp(d.object))?.object ?? input.live.find(isApp);
}

/** The Application's refresh paths, repository-relative; undefined when it names none. */
export function refreshPaths(app: KubeObject | undefined, sourcePath: string | undefined): string[] | undefined {
  const value = app?.metadata.annotations?.[ARGO_GENERATE_PATHS];
  if (!value) return undefined;
  const paths = value
    .split(';')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => (item.startsWith('/') ? item.slice(1) : joinPath(sourcePath ?? '', item)));
  return paths.length ? paths : undefined;
}

function joinPath(base: string, relative: string): string {
  const parts: string[] = [];
  for (const part of `${base}/${relative}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/** Whether a merge of these files makes the Application refresh (and so auto-sync). */
function refreshes(paths: string[] | undefined, changed: readonly string[] | undefined): boolean {
  if (!changed?.length || !paths) return true;
  return touchesPaths(paths, changed);
}

/** Whether one of the changed files is under one of the repository paths ('' = all, globs as Argo CD reads them). */
export function touchesPaths(paths: readonly string[], changed: readonly string[]): boolean {
  return changed.some((file) =>
    paths.some((path) => file === path || path === '' || file.startsWith(`${path}/`) || globMatchesPath(path, file)),
  );
}

/** Go's `filepath.Match`: `*` and `?` stay within one directory. */
function globMatchesPath(glob: string, file: string): boolean {
  return /[*?[]/.test(glob) && compileConfigGlobs([glob]).matches.test(file);
}

function handChange(change: FieldChange): boolean {
  return change.cause === 'human' && change.manager !== undefined && change.live !== undefined;
}

/** A pull request that sets an image Argo CD Image Updater writes: the updater sets its own version again. */
export function imageUpdaterWarnings(input: Pick<ResyncInput, 'plan' | 'sources' | 'head' | 'live'>): PlanWarning[] {
  const scopes = imageUpdaterScopes(input.sources, [...input.head.map((d) => d.object), ...input.live]);
  if (scopes.length === 0) return [];
  return input.plan.update.flatMap((entry) =>
    entry.changes.flatMap((change) => {
      const objects = { live: entry.live, desired: entry.desired?.object };
      const owner = imageUpdaterOwner(scopes, keyId(entry.id), change, objects);
      if (!owner) return [];
      const message =
        `This pull request sets ${field(entry.id, change)} to ${shown(change.desired, 120, change.segments)}, a field ` +
        `${imageUpdaterReason(owner)}.`;
      return [
        { code: 'conflict' as const, id: entry.id, path: change.path, ...at(entry.desired, change.path), message },
      ];
    }),
  );
}

/** One warning per Application that the merge re-syncs, naming the hand changes its sync reverts. */
export function argoResyncWarnings(input: ResyncInput): PlanWarning[] {
  const warnings: PlanWarning[] = [];
  for (const result of input.sources) {
    const { source } = result;
    if (result.scope !== 'rendered' || source.transforms.controller !== 'argocd' || !source.status) continue;
    const policy = source.transforms.syncPolicy;
    if (!policy.automated || policy.selfHeal || source.status.suspended) continue;
    if (!refreshes(refreshPaths(applicationObject(input, result), source.path), input.changed)) continue;
    const keys = new Set(result.objects.map(keyId));
    const undone = input.plan.update
      .filter((entry) => keys.has(keyId(entry.id)))
      .flatMap((entry) => entry.changes.filter(handChange).map((change) => ({ entry, change })));
    if (undone.length === 0) continue;
    const named = undone.slice(0, NAMED).map(({ entry, change }) => {
      const when = change.time ? `, ${change.time}` : '';
      const id = `${entry.id.kind} ${entry.id.namespace ? `${entry.id.namespace}/` : ''}${entry.id.name}`;
      return `${id} ${field(entry.id, change)}: ${change.manager}'s ${shown(change.live, 120, change.segments)}${when} → ${shown(change.desired, 120, change.segments)}`;
    });
    const more = undone.length > NAMED ? `; and ${undone.length - NAMED} more` : '';
    const name = sourceName(source.id);
    const message =
      `Merging this pull request re-syncs Argo CD Application ${name} (automated sync without selfHeal syncs ` +
      `at every new commit of its source while it is OutOfSync) and reverts these hand changes: ` +
      `${named.join('; ')}${more}. To keep them, merge driftback's drift pull request first, or suspend ` +
      `its automated sync (\`argocd app set ${name} --sync-policy none\`) before merging.`;
    warnings.push({ code: 'reverts-live-change', message });
  }
  return warnings;
}
