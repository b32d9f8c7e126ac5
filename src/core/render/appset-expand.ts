// An ApplicationSet of this repository expanded into the Applications its controller would write
// (applicationset/controllers/applicationset_controller.go generateApplications): every generator's
// parameter sets, the template rendered with each and its `templatePatch` applied (appset-patch.ts),
// the Application in the ApplicationSet's namespace.
// The generated Applications are sources (what each deploys is rendered and planned), not objects
// compared themselves: the ApplicationSet controller, not Git, writes them. An ApplicationSet that
// cannot be expanded as its controller would is reported, with the reason, never left silent.
import { isPlainObject, keyOf, type DesiredObject, type KubeObject } from '../model/index.js';
import { stringList } from '../sources/fields.js';
import { applicationSetControllerNamespace, ARGO_RESOURCES_FINALIZER } from '../sources/index.js';
import { generatorParams, type GeneratorContext } from './appset-generators.js';
import { applyTemplatePatch, type Patched } from './appset-patch.js';
import { renderTemplateTree, type Params, type TemplateMode } from './appset-template.js';

export type Expansion = { ok: true; applications: KubeObject[]; filesRead: string[] } | { ok: false; reason: string };

/**
 * A rendered template with the resources finalizer when it names no finalizer and
 * `syncPolicy.preserveResourcesOnDeletion` is not set (utils.go RenderTemplateParams), so deleting the
 * Application deletes what it deployed.
 */
function withFinalizer(rendered: Record<string, unknown>, preserve: boolean): Record<string, unknown> {
  const metadata = isPlainObject(rendered.metadata) ? rendered.metadata : {};
  const named = Array.isArray(metadata.finalizers) && metadata.finalizers.length > 0;
  const finalizers = named || preserve ? {} : { finalizers: [ARGO_RESOURCES_FINALIZER] };
  return { metadata: { ...metadata, ...finalizers }, spec: isPlainObject(rendered.spec) ? rendered.spec : {} };
}

/** The Application of a rendered (and patched) template, in the ApplicationSet's namespace. */
function applicationOf(rendered: Record<string, unknown>, namespace: string): KubeObject {
  const metadata = isPlainObject(rendered.metadata) ? rendered.metadata : {};
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { ...metadata, namespace } as KubeObject['metadata'],
    spec: isPlainObject(rendered.spec) ? rendered.spec : {},
  };
}

/** One parameter set's Application: the template rendered, its finalizer, then `templatePatch` (template.go). */
function generate(spec: Record<string, unknown>, params: Params, mode: TemplateMode, preserve: boolean): Patched {
  const rendered = renderTemplateTree(spec.template, params, mode);
  if (!rendered.ok) return rendered;
  const application = withFinalizer(rendered.value as Record<string, unknown>, preserve);
  if (typeof spec.templatePatch !== 'string') return { ok: true, value: application };
  return applyTemplatePatch(application, spec.templatePatch, params, mode);
}

export function expandApplicationSet(
  appset: KubeObject,
  context: Omit<GeneratorContext, 'mode' | 'argoNamespace'>,
): Expansion {
  const spec = isPlainObject(appset.spec) ? appset.spec : {};
  const argoNamespace = applicationSetControllerNamespace(appset, context.live);
  if (argoNamespace === undefined)
    return {
      ok: false,
      reason:
        `no Argo CD instance of the snapshot reconciles ApplicationSets of namespace ${appset.metadata?.namespace ?? ''} ` +
        '(its own namespace, or argocd-cmd-params-cm applicationsetcontroller.namespaces), so none generates its Applications',
    };
  const mode = {
    goTemplate: spec.goTemplate === true,
    missingKeyError: stringList(spec.goTemplateOptions).includes('missingkey=error'),
  };
  if (!isPlainObject(spec.template)) return { ok: false, reason: 'it has no template' };
  const preserve = isPlainObject(spec.syncPolicy) && spec.syncPolicy.preserveResourcesOnDeletion === true;
  const generators = Array.isArray(spec.generators) ? spec.generators : [];
  const applications = new Map<string, KubeObject>();
  const filesRead: string[] = [];
  for (const generator of generators) {
    const sets = generatorParams(generator, { ...context, mode, argoNamespace, filesRead });
    if ('reason' in sets) return { ok: false, reason: sets.reason };
    for (const params of sets) {
      const generated = generate(spec, params, mode, preserve);
      if (!generated.ok) return generated;
      const application = applicationOf(generated.value, appset.metadata?.namespace ?? '');
      const name = application.metadata.name;
      if (typeof name !== 'string' || name === '') return { ok: false, reason: 'a generated Application has no name' };
      if (applications.has(name)) return { ok: false, reason: `two generated Applications are named ${name}` };
      applications.set(name, application);
    }
  }
  return { ok: true, applications: [...applications.values()], filesRead };
}

/** A generated Application as a declared object: written where its ApplicationSet is, no field of its own. */
export function generatedDesired(application: KubeObject, appset: DesiredObject): DesiredObject {
  return { key: keyOf(application), object: application, source: { ...appset.source, fields: {} } };
}
