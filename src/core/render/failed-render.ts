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
 * kustomize builds an object without apiVersion, but no cluster can apply it: kubectl, Flux and Argo
 * CD refuse it (Object 'apiVersion' is missing), and with it the source's whole apply. Each is a
 * problem of the render, so the source is not rendered rather than compared as if it applied.
 */
export function unapplicableObjects(objects: readonly DesiredObject[]): SourceProblem[] {
  return objects
    .filter((desired) => typeof desired.object.apiVersion !== 'string' || desired.object.apiVersion === '')
    .map((desired) => ({
      file: desired.source.file,
      ...(desired.source.location.line ? { line: desired.source.location.line } : {}),
      field: 'apiVersion',
      message: `${desired.key.kind} "${desired.key.name}" has no apiVersion: kustomize builds it, but no cluster can apply it (Object 'apiVersion' is missing), so its source is not applied; give it its apiVersion`,
    }));
}

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
