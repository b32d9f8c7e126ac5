// The variables of a Flux Kustomization's post-build substitution, as kustomize-controller loads them
// (fluxcd/pkg kustomize/kustomize_varsub.go LoadVariables): each `substituteFrom` ConfigMap's `data`
// and Secret's `data` in list order (a later reference wins; a missing `optional` one is skipped),
// then the inline `substitute`, which wins over all; newlines are removed from values. A snapshot
// holds no Secret values, and may not hold a ConfigMap (another namespace, a tenant-scoped agent):
// what such a reference sets, or may set, is unknown — never the empty string.
import { isPlainObject, type KubeObject, type SourceLocation } from '../model/index.js';
import type { FluxTransforms, SubstituteFrom } from '../sources/types.js';
import type { VariableValue } from './envsubst.js';

export interface Variables {
  /** Known values. */
  values: Map<string, string>;
  /** Variables whose value the snapshot does not hold → where it comes from (`Secret flux-system/vars`). */
  unknown: Map<string, string[]>;
  /** References whose keys the snapshot does not hold: any variable not set later may come from them. */
  open: string[];
  /** Where each variable is set (`postBuild.substitute`, `ConfigMap flux-system/vars`), for reports. */
  origin: Map<string, string>;
  /** StrictPostBuildSubstitutions: an unset variable read without a default fails the build. */
  strict: boolean;
  /** Whether kustomize-controller substitutes at all (some variable, or `substituteStrategy: Always`). */
  active: boolean;
  /** Where each inline `substitute` value is written, when the Kustomization is in the repository. */
  inline?: ReadonlyMap<string, SourceLocation>;
}

/** kustomize-controller's check of variable names (`varsubRegex`). */
const VARIABLE_NAME = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

function liveReference(live: readonly KubeObject[], ref: SubstituteFrom, namespace: string): KubeObject | undefined {
  return live.find(
    (obj) =>
      obj.kind === ref.kind &&
      obj.apiVersion === 'v1' &&
      obj.metadata?.namespace === namespace &&
      obj.metadata?.name === ref.name,
  );
}

/** The variables, and the problem kustomize-controller fails the build on (an invalid variable name). */
export function variablesOf(
  transforms: FluxTransforms,
  namespace: string,
  live: readonly KubeObject[],
): { variables: Variables; problem?: string } {
  const variables: Variables = {
    ...{ values: new Map(), unknown: new Map(), open: [], origin: new Map() },
    ...{ strict: strictSubstitution(live), active: false },
  };
  for (const ref of transforms.postBuild?.substituteFrom ?? []) {
    const where = `${ref.kind} ${namespace}/${ref.name}`;
    const found = liveReference(live, ref, namespace);
    if (!found) {
      if (ref.optional) continue;
      // Whatever it sets is unknown, and it overrides what earlier references set.
      const opened = `${where} (not in the snapshot)`;
      for (const [key, from] of variables.unknown) variables.unknown.set(key, [...from, opened]);
      for (const key of variables.values.keys()) variables.unknown.set(key, [variables.origin.get(key)!, opened]);
      variables.values.clear();
      variables.open.push(opened);
      continue;
    }
    const data = isPlainObject(found.data) ? found.data : {};
    for (const [key, value] of Object.entries(data))
      set(variables, key, where, ref.kind === 'Secret' ? undefined : value);
  }
  for (const [key, value] of Object.entries(transforms.postBuild?.substitute ?? {}))
    set(variables, key, 'postBuild.substitute', value);
  const names = [...variables.values.keys(), ...variables.unknown.keys()];
  variables.active = names.length > 0 || variables.open.length > 0 || transforms.postBuild?.always === true;
  const invalid = names.find((name) => !VARIABLE_NAME.test(name));
  const problem = invalid && `'${invalid}' var name is invalid, must match '^[_[:alpha:]][_[:alpha:][:digit:]]*$'`;
  return problem ? { variables, problem } : { variables };
}

function set(variables: Variables, key: string, where: string, value: unknown): void {
  variables.origin.set(key, where);
  if (value === undefined) {
    variables.unknown.set(key, [where]);
    variables.values.delete(key);
  } else {
    variables.values.set(key, String(value).replace(/\n/g, ''));
    variables.unknown.delete(key);
  }
}

/** What a variable is, for envsubst. */
export function lookupIn(variables: Variables): (name: string) => VariableValue {
  return (name) => {
    const value = variables.values.get(name);
    if (value !== undefined) return { type: 'set', value };
    const from = variables.unknown.get(name) ?? (variables.open.length > 0 ? variables.open : undefined);
    return from ? { type: 'unknown', from } : { type: 'unset' };
  };
}

/**
 * Whether kustomize-controller runs with StrictPostBuildSubstitutions: its `--feature-gates` flag, else
 * its version (on by default from v1.9.0, off before). Without the controller in the snapshot it is
 * taken as on: an unset variable then leaves the source not rendered rather than guessing an empty value.
 */
export function strictSubstitution(live: readonly KubeObject[]): boolean {
  const controller = live.find((obj) => obj.kind === 'Deployment' && obj.metadata?.name === 'kustomize-controller') as
    { spec?: { template?: { spec?: { containers?: unknown[] } } } } | undefined;
  for (const container of controller?.spec?.template?.spec?.containers ?? []) {
    if (!isPlainObject(container)) continue;
    const args = Array.isArray(container.args) ? container.args.map(String) : [];
    for (const arg of args) {
      const gate = /StrictPostBuildSubstitutions=(true|false)/.exec(arg);
      if (arg.startsWith('--feature-gates') && gate) return gate[1] === 'true';
    }
    const version = /:v(\d+)\.(\d+)\./.exec(typeof container.image === 'string' ? container.image : '');
    if (version) return Number(version[1]) > 1 || (Number(version[1]) === 1 && Number(version[2]) >= 9);
  }
  return true;
}
