// How kustomize combines a helmCharts entry's `valuesInline` with its values file
// (HelmChartInflationGenerator replaceValuesInline: kyaml merge2.Merge, no schema): maps merged key
// by key, the source's scalar wins, lists replaced whole (values have no schema, so no list is
// associative), and a `null` in the source clears the field, whether or not the other side has it,
// at any depth (helm then falls back to the chart's default, as kustomize's build shows: no `null`
// reaches helm from the inline values). `override` (the default)
// merges the inline values over the file's; `merge` the file's over the inline ones.
import { isPlainObject } from '../model/index.js';

type Values = Record<string, unknown>;

function mergeNode(dest: unknown, src: unknown): { value: unknown } | { cleared: true } {
  if (src === undefined) return { value: dest };
  if (src === null) return { cleared: true };
  if (isPlainObject(src)) return { value: mergeMaps(isPlainObject(dest) ? dest : {}, src) };
  return { value: src };
}

function mergeMaps(dest: Values, src: Values): Values {
  const out: Values = { ...dest };
  for (const [key, value] of Object.entries(src)) {
    const merged = mergeNode(dest[key], value);
    if ('cleared' in merged) delete out[key];
    else out[key] = merged.value;
  }
  return out;
}

/** The values kustomize writes for helm: `replace` the inline ones alone, else merged with the file's. */
export function kustomizeHelmValues(
  fileValues: Values,
  inline: Values,
  mode: 'override' | 'merge' | 'replace',
): Values {
  if (mode === 'replace') return inline;
  return mode === 'override' ? mergeMaps(fileValues, inline) : mergeMaps(inline, fileValues);
}
