// What kustomize-controller applies is not the render byte for byte: before applying, objects of
// built-in kinds are converted through their Go types (fluxcd/pkg ssa/normalize/normalize.go), which
// writes the empty structs the types do not omit. Those empty structs are in the applier's field set,
// so without them here every defaulted strategy looks like "Git no longer declares it".
import { isPlainObject, type DesiredObject, type FieldSource } from '../model/index.js';

function ensureEmpty(
  desired: DesiredObject,
  parent: Record<string, unknown>,
  pointer: string,
  key: string,
  source: FieldSource,
): void {
  if (parent[key] !== undefined) return;
  parent[key] = {};
  desired.source.fields[`${pointer}/${key}`] = source;
}

/** Ports that name no protocol get `TCP` (the Go types' conversion keeps the defaulted key). */
function defaultProtocols(desired: DesiredObject, ports: unknown, pointer: string, source: FieldSource): void {
  if (!Array.isArray(ports)) return;
  ports.forEach((port, index) => {
    if (isPlainObject(port) && port.protocol === undefined) {
      port.protocol = 'TCP';
      desired.source.fields[`${pointer}/${index}/protocol`] = source;
    }
  });
}

function podTemplateContainers(desired: DesiredObject, spec: Record<string, unknown>, source: FieldSource): void {
  const podSpec = isPlainObject(spec.template) && isPlainObject(spec.template.spec) ? spec.template.spec : undefined;
  if (!podSpec) return;
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = podSpec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container, index) => {
      if (!isPlainObject(container)) return;
      ensureEmpty(desired, container, `/spec/template/spec/${list}/${index}`, 'resources', source);
      defaultProtocols(desired, container.ports, `/spec/template/spec/${list}/${index}/ports`, source);
    });
  }
}

/** Adds the empty structs Flux's normalization adds to built-in kinds (tested in normalize_test.go). */
export function normalizeForFlux(desired: DesiredObject, source: FieldSource): void {
  const { group, kind } = desired.key;
  const object = desired.object as unknown as Record<string, unknown>;
  if (group === '' && kind === 'Namespace') {
    ensureEmpty(desired, object, '', 'spec', source);
    return;
  }
  if (group === '' && kind === 'Service' && isPlainObject(object.spec)) {
    defaultProtocols(desired, object.spec.ports, '/spec/ports', source);
  }
  if (group !== 'apps' || !isPlainObject(object.spec)) return;
  const spec = object.spec;
  if (kind === 'Deployment') ensureEmpty(desired, spec, '/spec', 'strategy', source);
  if (kind === 'DaemonSet' || kind === 'StatefulSet') ensureEmpty(desired, spec, '/spec', 'updateStrategy', source);
  if (kind === 'Deployment' || kind === 'DaemonSet' || kind === 'StatefulSet') {
    podTemplateContainers(desired, spec, source);
  }
}
