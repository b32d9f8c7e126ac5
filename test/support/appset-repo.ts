// A GitOps repository whose ApplicationSet makes one Argo CD Application per directory under `apps/`
// (git directories generator), written to disk for `driftback plan`, and the snapshot its controllers
// leave: what each generated Application deployed, and the generated Applications themselves as the
// ApplicationSet controller writes them (owned by the ApplicationSet, its finalizers, their resources
// in their status).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { KubeObject } from '../../src/core/model/index.js';
import { renderCluster } from '../../src/core/pipeline/index.js';
import { expandApplicationSet } from '../../src/core/render/appset-expand.js';
import { liveOf } from '../core/plan/build.js';

const APPSET_REPO_URL = 'https://github.com/acme/gitops.git';
const APPSET_CONFIG = 'clusters:\n  - name: prod\n    path: clusters/prod\n';
export const APPSET_FILE = 'clusters/prod/appset.yaml';

export interface AppSetOptions {
  /** The ApplicationSet's `spec.syncPolicy`; none when undefined. */
  syncPolicy?: Record<string, unknown>;
  goTemplateOptions?: string[];
  /** The generators (default: git directories `apps/*` of this repository). */
  generators?: unknown[];
  /** Fields merged into the template's `metadata` (annotations, finalizers). */
  templateMetadata?: Record<string, unknown>;
}

/** The ApplicationSet: one Application per `apps/*` directory, deploying it into the namespace of its name. */
export function appSetYaml(options: AppSetOptions = {}): string {
  const spec: Record<string, unknown> = {
    goTemplate: true,
    ...(options.goTemplateOptions ? { goTemplateOptions: options.goTemplateOptions } : {}),
    generators: options.generators ?? [
      { git: { repoURL: APPSET_REPO_URL, revision: 'HEAD', directories: [{ path: 'apps/*' }] } },
    ],
    ...(options.syncPolicy ? { syncPolicy: options.syncPolicy } : {}),
    template: {
      metadata: { name: '{{.path.basename}}', ...options.templateMetadata },
      spec: {
        project: 'default',
        source: { repoURL: APPSET_REPO_URL, targetRevision: 'HEAD', path: '{{.path.path}}' },
        destination: { server: 'https://kubernetes.default.svc', namespace: '{{.path.basename}}' },
        syncPolicy: { automated: { prune: true, selfHeal: true } },
      },
    },
  };
  const metadata = { name: 'apps', namespace: 'argocd' };
  return stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata, spec });
}

export function deploymentYaml(name: string, replicas = 1): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
        - name: ${name}
          image: nginx:1.27
`;
}

/** The repository: the config, the ApplicationSet at `appsetFile`, and a Deployment per `apps/<dir>`. */
export function appSetTree(
  dirs: Readonly<Record<string, number>>,
  options: AppSetOptions & { appsetFile?: string; config?: string; more?: Record<string, string> } = {},
): Record<string, string> {
  return {
    '.github/driftback.yml': options.config ?? APPSET_CONFIG,
    [options.appsetFile ?? APPSET_FILE]: appSetYaml(options),
    ...Object.fromEntries(
      Object.entries(dirs).map(([dir, replicas]) => [`apps/${dir}/deployment.yaml`, deploymentYaml(dir, replicas)]),
    ),
    ...options.more,
  };
}

/** Writes `files` under `work/root`; returns them as the path → text map the core reads. */
export function writeTree(work: string, root: string, files: Readonly<Record<string, string>>): Map<string, string> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, root, path)), { recursive: true });
    writeFileSync(join(work, root, path), text);
  }
  return new Map(Object.entries(files));
}

export interface AppSetSnapshotOptions {
  /** Also write the generated Applications (owned by the ApplicationSet), not only what they deployed. */
  applications?: boolean;
  /** The cluster path the render starts at (default `clusters/prod`). */
  path?: string;
  /** More live objects (a parent Application, the ApplicationSet itself). */
  more?: KubeObject[];
}

/** The Applications the ApplicationSet of `files` generates, as the controller writes them. */
function generatedLive(files: ReadonlyMap<string, string>, appsetFile: string, applied: KubeObject[]): KubeObject[] {
  const set = parse(files.get(appsetFile)!) as KubeObject;
  const expansion = expandApplicationSet(set, { files, live: [], isThisRepository: () => true });
  if (!expansion.ok) throw new Error(expansion.reason);
  const owner = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    name: 'apps',
    uid: 'u1',
    controller: true,
  };
  return expansion.applications.map((application) => ({
    ...application,
    metadata: { ...application.metadata, ownerReferences: [owner] },
    status: {
      resources: applied
        .filter((obj) => obj.metadata.namespace === application.metadata.name)
        .map((obj) => ({
          group: 'apps',
          version: 'v1',
          kind: obj.kind,
          namespace: obj.metadata.namespace,
          name: obj.metadata.name,
        })),
    },
  }));
}

/**
 * The snapshot (as `driftback plan --live` reads it) of a cluster where `files` were applied: what the
 * generated Applications deployed, with `applications` the Applications too.
 */
export function appSetSnapshot(
  files: ReadonlyMap<string, string>,
  options: AppSetSnapshotOptions & { appsetFile?: string } = {},
): string {
  const cluster = { name: 'prod', path: options.path ?? 'clusters/prod', defaultNamespace: 'default' };
  const applied = renderCluster(files, cluster, { live: { items: options.more ?? [], repository: 'acme/gitops' } });
  const deployed = applied.objects.map((desired) => liveOf(desired));
  const applications = options.applications ? generatedLive(files, options.appsetFile ?? APPSET_FILE, deployed) : [];
  const items = [...deployed, ...applications, ...(options.more ?? [])];
  const capturedAt = new Date(Date.now() - 60_000).toISOString();
  return JSON.stringify({
    apiVersion: 'driftback.dev/v1',
    kind: 'Snapshot',
    repository: 'acme/gitops',
    cluster: 'prod',
    capturedAt,
    scope: { complete: true, errors: [] },
    items,
  });
}
