// The words of DESIGN "Controllers, sources and owners" as types. A source is one thing that applies a
// path of the repository to a cluster: a Flux Kustomization, an Argo CD Application, or the config's
// cluster path applied by kubectl. Every later step (render, stamps, ownership, suspension) reads these.
import type { Health, ResourceKey } from '../model/index.js';
import type { SourceRef } from './identity.js';

/** Where a source reads its manifests from. */
export type SourceOrigin =
  /** Flux: the `spec.sourceRef` (GitRepository, OCIRepository, Bucket, ExternalArtifact); namespace filled in. */
  | { type: 'flux-source'; kind: string; namespace: string; name: string }
  /** Argo CD: `spec.source.repoURL` and `targetRevision` (multi-source: those of the first source that renders). */
  | { type: 'git'; repoURL: string; targetRevision?: string; chart?: string }
  /** kubectl from CI: this repository, always. */
  | { type: 'this-repository' };

/** A Flux `spec.patches[]` entry: inline strategic-merge or JSON6902 text, with its target selector. */
export interface PatchTransform {
  patch: string;
  target?: PatchTarget;
}

export interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

/** A kustomize `images` entry (Flux `spec.images[]`, or an Argo CD `kustomize.images` string parsed). */
export interface ImageTransform {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/** A `postBuild.substituteFrom` reference: values from a ConfigMap or Secret in the source's namespace. */
export interface SubstituteFrom {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  /** A missing optional reference is tolerated by Flux. Default false. */
  optional: boolean;
}

/** What a Flux Kustomization adds to the render of its path (kustomize-controller `generator.go`, `apply`). */
export interface FluxTransforms {
  controller: 'flux';
  /** Overrides the kustomization's `namespace`. */
  targetNamespace?: string;
  /** Replace the kustomization's `namePrefix` / `nameSuffix`. */
  namePrefix?: string;
  nameSuffix?: string;
  /** Set on every rendered object after the build and substitution, overriding same-named keys. */
  commonMetadata: { labels: Record<string, string>; annotations: Record<string, string> };
  /** Appended after the kustomization's own `patches`. */
  patches: PatchTransform[];
  /** Merged by name into the kustomization's `images`. */
  images: ImageTransform[];
  /** Appended to the kustomization's `components` (paths relative to `spec.path`). */
  components: string[];
  /** `postBuild`; undefined when the Kustomization has none. */
  postBuild?: {
    substitute: Record<string, string>;
    substituteFrom: SubstituteFrom[];
    /** `substituteStrategy: Always`: substitute even when no variable is defined (defaults apply). */
    always: boolean;
  };
  /** `spec.decryption.provider` (`sops`); undefined when the Kustomization decrypts nothing. */
  decryption?: string;
  /** `spec.prune`: objects dropped from the inventory are deleted. Default false. */
  prune: boolean;
  /** `spec.suspend`. Default false. */
  suspend: boolean;
}

/** An Argo CD `ignoreDifferences` entry. `group: ''` is the core group, `'*'` any. */
export interface IgnoreDifference {
  group: string;
  kind: string;
  name?: string;
  namespace?: string;
  jsonPointers: string[];
  jqPathExpressions: string[];
  managedFieldsManagers: string[];
}

/** `spec.source.kustomize`: run as `kustomize edit` on a copy before the build (util/kustomize/kustomize.go). */
export interface ArgoKustomizeOverrides {
  namePrefix?: string;
  nameSuffix?: string;
  namespace?: string;
  images: ImageTransform[];
  /** The `images` strings as written (`name=newName:tag@digest`), index for index with `images`. */
  imageStrings: string[];
  replicas: Array<{ name: string; count: number }>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  forceCommonLabels: boolean;
  forceCommonAnnotations: boolean;
  labelWithoutSelector: boolean;
  patches: PatchTransform[];
  components: string[];
}

/**
 * One entry of a multi-source Application's `spec.sources` (pkg/apis/application/v1alpha1/types.go
 * ApplicationSource): where it reads, its `ref` name, and its own helm, directory and kustomize options.
 */
export interface ArgoSourceEntry {
  /** Its index in `spec.sources`. */
  index: number;
  origin: Extract<SourceOrigin, { type: 'git' }>;
  /** As `Source.path`; undefined for a chart of a Helm repository. */
  path?: string;
  /** `ref`: other sources read its repository's files as `$<ref>/…`. */
  ref?: string;
  /** A `ref` source with no path and no chart gives no manifests (repo-server GenerateManifest skips it). */
  refOnly: boolean;
  helm?: Record<string, unknown>;
  directory?: ArgoTransforms['directory'];
  kustomize?: ArgoKustomizeOverrides;
}

/** What an Argo CD Application adds to the render of its path. */
export interface ArgoTransforms {
  controller: 'argocd';
  /** `spec.sources` when the Application has them (they win over `spec.source`); each is rendered. */
  sources?: ArgoSourceEntry[];
  /** The `spec.sources` index these transforms are read from; undefined: `spec.source`. */
  sourceIndex?: number;
  /** `spec.source.directory`; undefined when absent (a plain directory then reads only its top level). */
  directory?: { recurse: boolean; include?: string; exclude?: string };
  kustomize?: ArgoKustomizeOverrides;
  /** `spec.source.helm` as written (valueFiles, values, parameters, …): read by the Helm render. */
  helm?: Record<string, unknown>;
  /** `spec.project`: the AppProject that says what it may deploy; undefined: `default`. */
  project?: string;
  /** Set on namespaced objects that name no namespace; cleared on cluster-scoped ones. */
  destination: { namespace?: string; server?: string; name?: string };
  syncPolicy: {
    /** Automated sync on (`automated` present and `enabled` not false). */
    automated: boolean;
    prune: boolean;
    selfHeal: boolean;
    syncOptions: string[];
  };
  ignoreDifferences: IgnoreDifference[];
}

/** kubectl from CI adds nothing to the render. */
export interface KubectlTransforms {
  controller: 'kubectl';
}

export type SourceTransforms = FluxTransforms | ArgoTransforms | KubectlTransforms;

/** One object a source says it manages. */
export interface InventoryEntry {
  key: ResourceKey;
  /** API version (Flux `v` is the version only: `v1`; Argo CD `version`). */
  version?: string;
}

/** What the live controller object says about the source (its `status`, and the suspend/sync switches). */
export interface SourceStatus {
  /** Flux `status.lastAppliedRevision` (`main@sha1:<sha>`); Argo CD `status.sync.revision`. */
  appliedRevision?: string;
  /** Flux `status.lastAttemptedRevision`; Argo CD `status.operationState.syncResult.revision`. */
  attemptedRevision?: string;
  /** Argo CD `status.operationState.phase` (`Succeeded`, `Running`, `Failed`, …). */
  operationPhase?: string;
  /** Argo CD `status.sync.status` (`Synced`, `OutOfSync`). */
  syncStatus?: string;
  /** Flux `spec.suspend: true`; Argo CD automated sync off or `argocd.argoproj.io/skip-reconcile: "true"`. */
  suspended: boolean;
  health: Health;
  /** Flux `status.inventory.entries`, Argo CD `status.resources`; undefined when the status holds none. */
  inventory?: InventoryEntry[];
}

/** Where a controller object was read: the rendered repository (file, document) and/or the snapshot. */
export interface SourceDeclaration {
  file: string;
  document: number;
}

export interface Source {
  /** Its identity (core/sources/identity): a Flux Kustomization, an Argo CD Application, or the kubectl cluster path. */
  id: SourceRef;
  /**
   * The path the source renders, relative to the repository root without `./` or a trailing `/`
   * (`''` the root). Undefined when the source has none (a Helm chart from a registry).
   */
  path?: string;
  origin: SourceOrigin;
  transforms: SourceTransforms;
  /** From the snapshot's object; undefined when the object is only in the repository. */
  status?: SourceStatus;
  /** From the rendered repository; undefined when the object is only live (applied by hand, other repository). */
  declaredIn?: SourceDeclaration;
}
