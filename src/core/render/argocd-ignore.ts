// An Argo CD Application's ignoreDifferences, and its instance's `resource.customizations`, as
// ignore rules for exactly the objects the Application applies: group and kind match as globs, name
// and namespace exactly when given (util/argo/normalizers/diff_normalizer.go `Normalize`).
// `jsonPointers` are removed with everything below them; `jqPathExpressions` remove the paths
// `path(<expression>)` yields on the desired and on the live object (Argo CD runs `del(…)` on both);
// `managedFieldsManagers` leave out the fields those managers own in live. With the sync option
// `RespectIgnoreDifferences=true` the sync keeps the live values too, which the plan reads.
import type { IgnoreRule } from '../config/index.js';
import { keyId, keyOf, toPointer, type DesiredObject, type KubeObject, type ResourceKey } from '../model/index.js';
import { compileArgoGlob } from '../patterns/index.js';
import { compileJqPath, jqPaths } from '../sources/argocd-jq.js';
import { argoInstanceFor } from '../sources/argocd-settings.js';
import { sourceName, type ArgoTracking } from '../sources/identity.js';
import type { ArgoTransforms, IgnoreDifference, Source } from '../sources/types.js';
import type { RenderSourceInputs, SourceNote } from './types.js';

/** An ignore rule a source declares: which Application, and whether its sync keeps the live values. */
export interface SourceIgnoreRule extends IgnoreRule {
  /** `argocd/guestbook`. */
  application?: string;
  /** `RespectIgnoreDifferences=true`: the sync leaves the ignored fields as they are live. */
  respected?: boolean;
}

/** The settings of the Argo CD instance that reads the Application (its namespace's), else the cluster's. */
export function argoSettingsOf(source: Source, inputs: RenderSourceInputs): ArgoTracking {
  return argoInstanceFor(inputs.argoInstances ?? [], source.id.namespace) ?? inputs.argoSettings;
}

/** Whether the Application's sync options say `<name>=<value>` (Argo CD's `SyncOptions.HasOption`). */
export function hasSyncOption(transforms: ArgoTransforms, option: string): boolean {
  return transforms.syncPolicy.syncOptions.some((given) => given.trim() === option);
}

function globMatches(glob: string, value: string): boolean {
  if (glob === value) return true;
  const compiled = compileArgoGlob(glob);
  return compiled.ok && compiled.pattern.test(value);
}

function ruleMatches(rule: IgnoreDifference, key: ResourceKey): boolean {
  return (
    globMatches(rule.group, key.group) &&
    globMatches(rule.kind, key.kind) &&
    (!rule.name || rule.name === key.name) &&
    (!rule.namespace || rule.namespace === key.namespace)
  );
}

/** The pointers the rule removes from this object (its JSON pointers, and its jq paths on either side). */
function pointersFor(rule: IgnoreDifference, desired: DesiredObject, live: KubeObject | undefined): string[] {
  const pointers = [...rule.jsonPointers];
  for (const expression of rule.jqPathExpressions) {
    const compiled = compileJqPath(expression);
    if (!compiled.ok) continue;
    for (const side of live ? [desired.object, live] : [desired.object]) {
      for (const path of jqPaths(compiled.filter, side)) pointers.push(toPointer(path));
    }
  }
  return [...new Set(pointers)];
}

/** What of the rules cannot be applied: a jq expression that does not parse fails Argo CD's comparison. */
function ruleNotes(application: string, rules: readonly IgnoreDifference[], settings: ArgoTracking): SourceNote[] {
  const notes: SourceNote[] = [];
  for (const rule of rules) {
    for (const expression of rule.jqPathExpressions) {
      const compiled = compileJqPath(expression);
      if (compiled.ok) continue;
      const message = `ignoreDifferences for ${rule.kind}: ${compiled.message}; Argo CD fails this Application's comparison, and driftback compares the field`;
      notes.push({ code: 'unsupported', source: application, message });
    }
  }
  for (const problem of settings.problems ?? []) {
    notes.push({ code: 'unsupported', source: application, message: problem });
  }
  return notes;
}

const liveIndexes = new WeakMap<readonly KubeObject[], Map<string, KubeObject>>();

/** The live objects by keyId, built once per snapshot. */
function liveIndexOf(live: readonly KubeObject[]): ReadonlyMap<string, KubeObject> {
  let index = liveIndexes.get(live);
  if (!index) liveIndexes.set(live, (index = new Map(live.map((obj) => [keyId(keyOf(obj)), obj]))));
  return index;
}

/** The ignore rules of one Argo CD Application for the objects it applies, with notes on what cannot apply. */
export function argoIgnoreRules(
  source: Source,
  objects: readonly DesiredObject[],
  live: readonly KubeObject[],
  settings: ArgoTracking,
): { rules: SourceIgnoreRule[]; notes: SourceNote[] } {
  if (source.transforms.controller !== 'argocd') return { rules: [], notes: [] };
  const liveById = liveIndexOf(live);
  const transforms = source.transforms;
  const application = sourceName(source.id);
  const respected = hasSyncOption(transforms, 'RespectIgnoreDifferences=true');
  const own = { reason: `Argo CD Application ${application} ignoreDifferences`, rules: transforms.ignoreDifferences };
  const system = {
    reason: `Argo CD resource.customizations (argocd-cm in ${settings.controlPlaneNamespace})`,
    rules: settings.ignoreDifferences ?? [],
  };
  const rules: SourceIgnoreRule[] = [];
  for (const { reason, rules: declared } of [own, system]) {
    for (const rule of declared) {
      for (const desired of objects) {
        if (!ruleMatches(rule, desired.key)) continue;
        const { key } = desired;
        const base: SourceIgnoreRule = {
          kinds: [key.kind],
          groups: [key.group],
          names: [key.name],
          ...(key.namespace ? { namespaces: [key.namespace] } : {}),
          reason,
          application,
          respected,
        };
        const paths = pointersFor(rule, desired, liveById.get(keyId(key)));
        if (paths.length > 0) rules.push({ ...base, paths });
        if (rule.managedFieldsManagers.length > 0) rules.push({ ...base, managers: rule.managedFieldsManagers });
      }
    }
  }
  return { rules, notes: ruleNotes(application, [...own.rules, ...system.rules], settings) };
}
