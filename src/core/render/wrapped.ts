// Renders a source's path through its wrapper kustomization (wrapper.ts) and traces the result back to
// the controller object (remap.ts): what a Flux Kustomization and an Argo CD kustomize source share.
import { renderManifests, type RenderOptions } from '../manifests/index.js';
import { remapWrapperRender, type Declaration } from './remap.js';
import type { DeclaredSource, RenderSourceInputs, SourceRender } from './types.js';
import { sourceName } from '../sources/identity.js';
import { buildWrapper, isWrapperPath, withWrapper, wrapperDir, type WrapperSpec } from './wrapper.js';

export type DeclarationShape = Omit<Declaration, 'display' | 'desired' | 'text'>;

export function renderThroughWrapper(
  declared: DeclaredSource,
  inputs: RenderSourceInputs,
  spec: WrapperSpec,
  shape: DeclarationShape,
  defaultNamespace = inputs.defaultNamespace,
  build: Pick<RenderOptions, 'helm' | 'managedByLabel'> = {},
): SourceRender {
  const { source } = declared;
  const path = source.path ?? '';
  const file = declared.desired?.source.file;
  const wrapper = buildWrapper(wrapperDir(source.id.controller, source.id.namespace, source.id.name), path, spec);
  const rendered = renderManifests(withWrapper(inputs.files, wrapper), wrapper.dir, {
    defaultNamespace,
    ...(inputs.cache ? { cache: inputs.cache } : {}),
    ...(inputs.kindScopes ? { kindScopes: inputs.kindScopes } : {}),
    ...(inputs.unfollowed ? { unfollowed: inputs.unfollowed } : {}),
    ...(inputs.budget ? { budget: inputs.budget } : {}),
    ...build,
  });
  const display = `${source.id.kind} ${sourceName(source.id)}`;
  const declaration: Declaration = {
    display,
    ...shape,
    ...(declared.desired ? { desired: declared.desired } : {}),
    ...(declared.text !== undefined ? { text: declared.text } : {}),
  };
  const where = file ?? display;
  return {
    objects: remapWrapperRender(rendered.objects, wrapper, declaration),
    // The wrapper is ours: a problem in it is one of the controller object's fields.
    errors: rendered.errors.map((problem) =>
      isWrapperPath(problem.file)
        ? { file: where, message: `${display}: ${problem.field ? problem.field + ': ' : ''}${problem.message}` }
        : problem,
    ),
    skipped: rendered.skipped.filter((skip) => !isWrapperPath(skip.file)),
    filesRead: [...rendered.filesRead.filter((read) => !isWrapperPath(read)), ...(file ? [file] : [])],
    notes: [],
    ...(rendered.notRendered?.length ? { notRendered: rendered.notRendered } : {}),
    ...(rendered.stopped ? { stopped: true as const } : {}),
  };
}
