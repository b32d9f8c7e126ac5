// Helm's output read as desired objects. `helm template` prints one document per template, each after
// a `# Source: <chart>/<template>` line; each template's documents are read as one file (so the 4 MiB
// limit of one file is per template, not per chart), YAML 1.2 as every manifest (`yes` is a string,
// `null` a value), charged to the job's budget. Namespaced objects that name no namespace get the
// release namespace (Flux's target namespace, Argo CD's destination). Hooks (`helm.sh/hook`) are not
// desired state: they are dropped here, but for the delete hooks (`pre-delete`, `post-delete`), kept for
// the render to set aside as hooks, so a plan that deletes the release (Flux's `helm uninstall`) or the
// Application (Argo CD, controller/hook.go) can say what runs. Every field of a
// chart's object is the chart's: codify cannot write it into a template, so it routes such a change
// to the chart's values by hand.
import { renderBudget, renderManifests, templateFile, templatesOf, type RenderBudget } from '../manifests/index.js';
import { isClusterScopedKind, kindScopesOf, type KindScopes } from '../k8s/index.js';
import type { DesiredObject, FieldSource, SourceProblem } from '../model/index.js';

export interface ChartObjectsInput {
  manifest: string;
  /** The chart's directory in the repository (`charts/podinfo`), or its name for a repository chart. */
  where: string;
  releaseNamespace: string;
  /** Origin of every field: the declaration that renders the chart. */
  origin: FieldSource;
  kindScopes?: KindScopes;
  budget?: RenderBudget;
  /** Flux `postRenderers[].kustomize` (patches, images), applied in order to Helm's output. */
  postRenderers?: readonly PostRenderer[];
}

export interface PostRenderer {
  patches: unknown[];
  images: unknown[];
}

export interface ChartObjects {
  objects: DesiredObject[];
  errors: SourceProblem[];
  stopped?: true;
}

interface ReadOutput {
  objects: DesiredObject[];
  errors: SourceProblem[];
  /** What reading it charged the budget: a memoised read charges the same again. */
  usage: { nodes: number; documents: number; bytes: number };
}

/** The output's objects as Helm printed them (no namespace given, no scopes asked), or undefined when the budget stopped it. */
function readOutput(input: ChartObjectsInput): ReadOutput | { errors: SourceProblem[]; stopped: true } {
  const files = new Map<string, string>();
  for (const [template, text] of templatesOf(input.manifest)) files.set(templateFile(input.where, template), text);
  const budget = input.budget ?? renderBudget();
  const before = budget.used();
  const objects: DesiredObject[] = [];
  const errors: SourceProblem[] = [];
  for (const [root, inputs] of renderRoots(files, input.postRenderers ?? [])) {
    const rendered = renderManifests(inputs, root, { defaultNamespace: null, budget });
    errors.push(...rendered.errors);
    if (rendered.stopped) return { errors, stopped: true };
    for (const desired of rendered.objects) {
      if (isDroppedHook(desired.object.metadata?.annotations?.['helm.sh/hook'])) continue;
      desired.source = { ...desired.source, kustomizations: [], fields: {} };
      objects.push(desired);
    }
  }
  const after = budget.used();
  const usage = {
    nodes: after.nodes - before.nodes,
    documents: after.documents - before.documents,
    bytes: after.bytes - before.bytes,
  };
  return { objects, errors, usage };
}

/** A Helm hook that runs at no deletion: dropped from the output (a delete hook is kept, set aside later). */
function isDroppedHook(value: string | undefined): boolean {
  if (value === undefined) return false;
  return !value.split(',').some((type) => ['pre-delete', 'post-delete'].includes(type.trim()));
}

const POST_RENDER_DIR = '.driftback-post-render';

/**
 * What to render: each template alone, or, with post-renderers, one kustomization per post-renderer
 * (helm-controller's kustomize post-renderer), each over the one before, the first over every template.
 */
function renderRoots(
  files: ReadonlyMap<string, string>,
  postRenderers: readonly PostRenderer[],
): Array<[string, ReadonlyMap<string, string>]> {
  if (postRenderers.length === 0) return [...files.keys()].map((file) => [file, files]);
  const all = new Map(files);
  let resources = [...files.keys()].map((file) => `../../${file}`);
  postRenderers.forEach((renderer, index) => {
    const dir = `${POST_RENDER_DIR}/${index}`;
    const kustomization = { resources, patches: renderer.patches, images: renderer.images };
    all.set(`${dir}/kustomization.yaml`, JSON.stringify(kustomization));
    resources = [`../${index}`];
  });
  return [[`${POST_RENDER_DIR}/${postRenderers.length - 1}`, all]];
}

/** The output read once per (output, place in the repository); later reads copy it and charge the budget again. */
function memoisedRead(input: ChartObjectsInput, memo: Map<string, unknown> | undefined): ReturnType<typeof readOutput> {
  const key = `${input.where}\0${input.releaseNamespace}\0${JSON.stringify(input.postRenderers ?? [])}`;
  const hit = memo?.get(key) as ReadOutput | undefined;
  if (!hit) {
    const read = readOutput(input);
    if (memo && !('stopped' in read)) memo.set(key, read);
    return 'stopped' in read ? read : copyRead(read);
  }
  (input.budget ?? renderBudget()).charge(input.where || '.', hit.usage);
  return copyRead(hit);
}

function copyRead(read: ReadOutput): ReadOutput {
  const objects = read.objects.map((desired) => ({
    key: { ...desired.key },
    object: structuredClone(desired.object),
    source: { ...desired.source, fields: {} },
  }));
  return { objects, errors: read.errors.map((problem) => ({ ...problem })), usage: read.usage };
}

/** Namespaced objects that name no namespace get the release's; the key follows the cluster's scopes. */
function placeInNamespace(objects: readonly DesiredObject[], releaseNamespace: string, known?: KindScopes): void {
  const crds = objects.filter(
    (d) => d.key.kind === 'CustomResourceDefinition' && d.key.group === 'apiextensions.k8s.io',
  );
  const scopes = crds.length > 0 ? kindScopesOf({ desired: crds.map((d) => d.object) }, known) : known;
  for (const desired of objects) {
    if (isClusterScopedKind(scopes, desired.key.group, desired.key.kind)) {
      desired.key.namespace = '';
      continue;
    }
    const metadata = (desired.object.metadata ??= {});
    if (!metadata.namespace) metadata.namespace = releaseNamespace;
    desired.key.namespace = metadata.namespace;
  }
}

/** `memo`: the output's own slot (ChartOutput.memo), so an output served again from cache is not read again. */
export function chartObjects(input: ChartObjectsInput, memo?: Map<string, unknown>): ChartObjects {
  const read = memoisedRead(input, memo);
  if ('stopped' in read) return { objects: [], errors: read.errors, stopped: true };
  placeInNamespace(read.objects, input.releaseNamespace, input.kindScopes);
  for (const desired of read.objects) desired.source.fields = { '': input.origin };
  return { objects: read.objects, errors: read.errors };
}
