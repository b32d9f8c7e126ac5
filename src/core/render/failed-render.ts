// A source whose render fails is not rendered, alone: kustomize, Flux and Argo CD fail the whole build
// of a source on one problem, so none of its objects is known. It is listed as "not rendered" with
// the reason, its problems stay reported, and the live objects it may have made are set aside (never
// extra, never pruned, never in sync); every other source of the cluster is still compared.
import { formatProblem, type DesiredObject, type NotRenderedSource, type SourceProblem } from '../model/index.js';
import type { SourceRender } from './types.js';
import type { Source } from '../sources/types.js';

/** The problems of a render as one line: the first, and how many more. */
export function problemsReason(problems: readonly SourceProblem[]): string {
  const more = problems.length - 1;
  return formatProblem(problems[0]!) + (more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : '');
}

/**
 * Why a source's render gives nothing to compare (its problems, or a source kind that is not rendered,
 * such as a Helm chart); undefined when it rendered.
 */
export function failedRender(rendered: Pick<SourceRender, 'errors' | 'notes' | 'objects'>): string | undefined {
  if (rendered.errors.length > 0) return problemsReason(rendered.errors);
  if (rendered.objects.length > 0) return undefined;
  return rendered.notes.find((note) => note.code === 'unsupported')?.message;
}

/**
 * kustomize builds an object without apiVersion, and one of kustomize's own configuration
 * (`kustomize.config.k8s.io`: a Kustomization or Component listed as a file), but no cluster can apply
 * either: kubectl, Flux and Argo CD refuse it (Object 'apiVersion' is missing; no matches for kind), and
 * with it the source's whole apply. Each is a problem of the render, so the source is not rendered
 * rather than compared as if it applied.
 */
export function unapplicableObjects(objects: readonly DesiredObject[]): SourceProblem[] {
  return objects.flatMap((desired) => {
    const message = unapplicable(desired);
    if (!message) return [];
    const line = desired.source.location.line;
    return [{ file: desired.source.file, ...(line ? { line } : {}), field: 'apiVersion', message }];
  });
}

function unapplicable({ key, object }: DesiredObject): string | undefined {
  if (typeof object.apiVersion !== 'string' || object.apiVersion === '')
    return `${key.kind} "${key.name}" has no apiVersion: kustomize builds it, but no cluster can apply it (Object 'apiVersion' is missing), so its source is not applied; give it its apiVersion`;
  if (key.group === KUSTOMIZE_CONFIG_GROUP)
    return `${key.kind} "${key.name}" (${object.apiVersion}) configures kustomize: kustomize builds it as an object when a kustomization lists its file, but no cluster serves that API (no matches for kind "${key.kind}"), so its source is not applied; name the file kustomization.yaml in a directory of its own and list that directory, or move it out of what the source builds`;
  return undefined;
}

const KUSTOMIZE_CONFIG_GROUP = 'kustomize.config.k8s.io';

/**
 * A source whose objects are unknown, said once in its notes (`message`) and as the part not rendered,
 * so a plan and a report say why and the live objects in the part's namespace are set aside, never
 * pruned or extra. `name`: the source as people read it (`shop/webapp`).
 */
export function sourceNotRendered(name: string, message: string, part: NotRenderedSource): SourceRender {
  return {
    objects: [],
    errors: [],
    skipped: [],
    filesRead: [],
    notes: [{ code: 'unsupported', source: name, message }],
    notRendered: [part],
  };
}

/** A problem as a part that was not rendered; `namespace`: where its objects would land, when known. */
export function problemPart(problem: SourceProblem, namespace?: string): NotRenderedSource {
  return {
    file: problem.file,
    ...(problem.line ? { line: problem.line } : {}),
    ...(problem.field ? { field: problem.field } : {}),
    reason: problem.message,
    ...(namespace ? { namespace } : {}),
  };
}

/**
 * What a source not rendered leaves unknown: each of its problems, or the source itself. Its objects
 * land in Flux's `targetNamespace` (it overrides every namespace); otherwise in any namespace.
 */
export function unrenderedParts(source: Source, errors: readonly SourceProblem[], reason: string): NotRenderedSource[] {
  const namespace = source.transforms.controller === 'flux' ? source.transforms.targetNamespace : undefined;
  if (errors.length > 0) return errors.map((problem) => problemPart(problem, namespace));
  const file = source.declaredIn?.file ?? source.path ?? '.';
  return [{ file, reason, ...(namespace ? { namespace } : {}) }];
}
