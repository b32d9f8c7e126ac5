// What an Argo CD Application's sync options change in a plan (docs/user-guide/sync-options.md): an
// option holds on the Application (`syncPolicy.syncOptions`) or on one resource
// (`argocd.argoproj.io/sync-options`, comma-separated; the resource's own setting wins).
// - `Replace=true`: the sync runs `kubectl replace` (create when absent): fields Git does not declare go.
// - `ServerSideApply=true`: applied server-side; fields other managers own stay.
// - `CreateNamespace=true`: the destination namespace is created by the sync, so it is not "missing".
// - `Prune=confirm`: a prune waits for a person's confirmation.
// And an object two Applications render is a conflict between them (source-worklist's `shared-resource`),
// compared against each Application's rendering.
import { keyId, keyOf, type DesiredObject, type KubeObject, type Plan, type PlanWarning } from '../model/index.js';
import type { SourceNote } from '../render/types.js';
import type { SourceResult } from '../render/source-worklist.js';
import { sourceName } from '../sources/identity.js';
import type { Config } from '../config/index.js';
import { comparedWithEach, sharedClaims } from './shared-resources.js';

const ANNOTATION = 'argocd.argoproj.io/sync-options';

function optionsOf(object: KubeObject | undefined): Map<string, string> {
  const text = object?.metadata.annotations?.[ANNOTATION] ?? '';
  const options = new Map<string, string>();
  for (const option of text.split(',')) {
    const [name, value] = option.trim().split('=', 2);
    if (name && value !== undefined) options.set(name, value);
  }
  return options;
}

/** The value of a sync option for one object: its annotation first, then the Application's. */
function optionFor(name: string, object: KubeObject | undefined, app: readonly string[]): string | undefined {
  const own = optionsOf(object).get(name);
  if (own !== undefined) return own;
  const entry = [...app].reverse().find((option) => option.split('=', 1)[0] === name);
  return entry?.slice(name.length + 1);
}

interface ArgoApp {
  name: string;
  options: readonly string[];
  keys: ReadonlySet<string>;
  namespace?: string;
}

function argoApps(sources: readonly SourceResult[]): ArgoApp[] {
  return sources.flatMap(({ source, scope, objects }) => {
    if (scope !== 'rendered' || source.transforms.controller !== 'argocd') return [];
    const keys = new Set([...objects, ...(source.status?.inventory ?? []).map((entry) => entry.key)].map(keyId));
    const namespace = source.transforms.destination.namespace;
    const app = { name: sourceName(source.id), options: source.transforms.syncPolicy.syncOptions, keys };
    return [namespace ? { ...app, namespace } : app];
  });
}

function replaceWarnings(plan: Plan, app: ArgoApp): PlanWarning[] {
  return plan.update
    .filter(
      (entry) => app.keys.has(keyId(entry.id)) && optionFor('Replace', entry.desired?.object, app.options) === 'true',
    )
    .map((entry) => ({
      code: 'argocd-sync-option' as const,
      id: entry.id,
      message:
        `Argo CD Application ${app.name} replaces it (\`Replace=true\`): the sync runs \`kubectl replace\`, so ` +
        'every field Git does not declare, those other managers set included, is dropped, not merged.',
    }));
}

function serverSideWarning(plan: Plan, app: ArgoApp): PlanWarning[] {
  const applied = [...plan.create, ...plan.update].filter(
    (entry) =>
      app.keys.has(keyId(entry.id)) && optionFor('ServerSideApply', entry.desired?.object, app.options) === 'true',
  );
  if (applied.length === 0) return [];
  const message =
    `Argo CD Application ${app.name} applies server-side (\`ServerSideApply=true\`) as \`argocd-controller\`: ` +
    `fields other managers own stay as they are, and a field Git stops declaring is removed only where ` +
    `argocd-controller owns it (${applied.length} object${applied.length === 1 ? '' : 's'} of this plan).`;
  return [{ code: 'argocd-sync-option', message }];
}

function pruneConfirmWarnings(plan: Plan, app: ArgoApp): PlanWarning[] {
  return plan.prune
    .filter((entry) => app.keys.has(keyId(entry.id)) && optionFor('Prune', entry.live, app.options) === 'confirm')
    .map((entry) => ({
      code: 'argocd-sync-option' as const,
      id: entry.id,
      message:
        `Pruned only once a person confirms it (\`Prune=confirm\`): the sync of Argo CD Application ${app.name} ` +
        'waits for the confirmation (the UI, the CLI, or the `argocd.argoproj.io/deletion-approved` annotation on the Application).',
    }));
}

/** `CreateNamespace=true`: the sync creates the destination namespace first, so it is not missing. */
function createNamespace(warnings: readonly PlanWarning[], apps: readonly ArgoApp[]): PlanWarning[] {
  const creating = apps.filter(
    (app) => app.namespace && optionFor('CreateNamespace', undefined, app.options) === 'true',
  );
  const created = new Map<string, string>();
  const kept = warnings.filter((warning) => {
    if (warning.code !== 'namespace-missing' || !warning.id) return true;
    const app = creating.find((candidate) => candidate.namespace === warning.id!.namespace);
    if (!app) return true;
    created.set(app.namespace!, app.name);
    return false;
  });
  for (const [namespace, app] of created)
    kept.push({
      code: 'argocd-sync-option',
      message: `Argo CD Application ${app} creates namespace \`${namespace}\` before it syncs (\`CreateNamespace=true\`).`,
    });
  return kept;
}

/** Two Argo CD Applications render one object: each sync takes it from the other; live compared against each, as drift does. */
function sharedResourceWarnings(
  notes: readonly SourceNote[],
  head: readonly DesiredObject[],
  live: readonly KubeObject[],
  config?: Config,
): PlanWarning[] {
  const declared = new Map(head.map((desired) => [keyId(desired.key), desired.object]));
  const shared = notes.filter((note) => note.code === 'shared-resource' && note.key && declared.has(keyId(note.key)));
  if (shared.length === 0) return [];
  const claims = sharedClaims(shared);
  const liveById = new Map(live.map((object) => [keyId(keyOf(object)), object]));
  return shared.map((note) => {
    const id = keyId(note.key!);
    const object = liveById.get(id);
    const compared = object
      ? ` Compared with live ${comparedWithEach(claims.get(id)!, declared.get(id)!, object, config)}.`
      : '';
    return {
      code: 'conflict' as const,
      id: note.key!,
      message: `Argo CD Application ${note.source} ${note.message}.${compared}`,
    };
  });
}

/** The plan with its Argo CD sync options and shared resources said. */
export function withArgoSyncOptions(
  plan: Plan,
  sources: readonly SourceResult[],
  notes: readonly SourceNote[],
  head: readonly DesiredObject[],
  live: readonly KubeObject[] = [],
  config?: Config,
): Plan {
  const apps = argoApps(sources);
  if (apps.length === 0) return plan;
  const added = apps.flatMap((app) => [
    ...replaceWarnings(plan, app),
    ...serverSideWarning(plan, app),
    ...pruneConfirmWarnings(plan, app),
  ]);
  const warnings = [
    ...createNamespace(plan.warnings, apps),
    ...added,
    ...sharedResourceWarnings(notes, head, live, config),
  ];
  return { ...plan, warnings };
}
