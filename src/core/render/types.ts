// What rendering one source gives: its desired objects (transforms and stamps applied, each field traced
// to where it is written), the problems, and notes — what could not be checked or is not supported.
import type { ChartCapabilities, ChartRenderer } from '../charts/index.js';
import type { ParseCache, RenderBudget, UnfollowedKind } from '../manifests/index.js';
import type {
  DesiredObject,
  KubeObject,
  NotRenderedSource,
  ResourceKey,
  SkippedDocument,
  SourceProblem,
} from '../model/index.js';
import type { KindScopes } from '../k8s/index.js';
import type { ArgoTracking } from '../sources/identity.js';
import type { Source } from '../sources/types.js';

export type SourceNoteCode =
  /** A value from a Secret (postBuild substituteFrom): the snapshot holds no Secret values. */
  | 'not-checkable'
  /** A feature the render does not model (Argo CD jq ignore rules, Helm sources, jsonnet). */
  | 'unsupported'
  /** A source that applies another repository: listed, not rendered. */
  | 'out-of-scope'
  /** An object two sources render; the first keeps it. */
  | 'rendered-twice'
  /**
   * An object two Argo CD Applications render: each sync takes it over from the other (Argo CD's
   * SharedResourceWarning). A conflict: live is compared against each Application's rendering, every
   * difference reported naming both, never codified (plan/shared-resources.ts).
   */
  | 'shared-resource';

export interface SourceNote {
  code: SourceNoteCode;
  /** `flux-system/apps`. */
  source: string;
  message: string;
  key?: ResourceKey;
  pointer?: string;
  /** `shared-resource`: the source that rendered the object first, and this source's own rendering of it. */
  shared?: { first: string; desired: DesiredObject };
}

export interface RenderSourceInputs {
  files: ReadonlyMap<string, string>;
  live: readonly KubeObject[];
  /** Namespace for namespaced objects that name none (after every transform). */
  defaultNamespace: string;
  argoSettings: ArgoTracking;
  /** Every Argo CD instance the snapshot shows: an Application is read with its own instance's settings. */
  argoInstances?: ArgoTracking[];
  /** Which kinds are namespaced, as the cluster says (kindScopesOf). */
  kindScopes?: KindScopes;
  cache?: ParseCache;
  unfollowed?: ReadonlyMap<string, UnfollowedKind>;
  budget?: RenderBudget;
  /** Runs Helm (an edge supplies it); absent: charts are reported, not rendered ("helm not found"). */
  charts?: ChartRenderer;
  /** The cluster's Kubernetes version and served API versions, as Helm's capabilities. */
  capabilities?: ChartCapabilities;
  /** True when an Argo CD repoURL names this repository (its files are `files`); absent: every one does. */
  isThisRepository?: (repoURL: string) => boolean;
}

export interface SourceRender {
  objects: DesiredObject[];
  errors: SourceProblem[];
  skipped: SkippedDocument[];
  filesRead: string[];
  notes: SourceNote[];
  /** Parts of the source's tree the renderer could not render (a Helm chart, a remote base, a plugin). */
  notRendered?: NotRenderedSource[];
  stopped?: true;
}

/** The rendered controller object of a source, with its file's text (for tracing patches into it). */
export interface DeclaredSource {
  source: Source;
  desired?: DesiredObject;
  text?: string;
}
