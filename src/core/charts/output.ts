// Helm's output read as desired objects. `helm template` prints one document per template, each after
// a `# Source: <chart>/<template>` line; each template's documents are read as one file (so the 4 MiB
// limit of one file is per template, not per chart), YAML 1.2 as every manifest (`yes` is a string,
// `null` a value), charged to the job's budget. Namespaced objects that name no namespace get the
// release namespace (Flux's target namespace, Argo CD's destination). Hooks (`helm.sh/hook`) are not
// desired state: Helm leaves them out with --no-hooks, and any left are dropped here. Every field of a
// chart's object is the chart's: codify cannot write it into a template, so it routes such a change
// to the chart's values by hand.
import { renderManifests, type RenderBudget } from '../manifests/index.js';
import type { KindScopes } from '../k8s/index.js';
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
}

export interface ChartObjects {
  objects: DesiredObject[];
  errors: SourceProblem[];
  stopped?: true;
}

/** Template path → its documents' text, in Helm's order (`podinfo/templates/service.yaml`). */
export function templatesOf(manifest: string): Map<string, string> {
  const templates = new Map<string, string>();
  let current = '';
  let lines: string[] = [];
  const flush = (): void => {
    const text = lines.join('\n').trim();
    if (text) templates.set(current, `${templates.has(current) ? templates.get(current) + '\n---\n' : ''}${text}\n`);
    lines = [];
  };
  for (const line of manifest.split('\n')) {
    if (line === '---' || line.startsWith('--- ')) {
      flush();
      continue;
    }
    const source = /^# Source: (.+)$/.exec(line);
    if (source && lines.every((l) => l.trim() === '')) {
      current = source[1]!.trim();
      continue;
    }
    lines.push(line);
  }
  flush();
  return templates;
}

/** The template's path inside the repository: `podinfo/templates/a.yaml` of `charts/podinfo` → `charts/podinfo/templates/a.yaml`. */
function fileOf(where: string, template: string): string {
  const inChart = template.includes('/') ? template.slice(template.indexOf('/') + 1) : template;
  return where ? `${where}/${inChart}` : inChart;
}

export function chartObjects(input: ChartObjectsInput): ChartObjects {
  const files = new Map<string, string>();
  for (const [template, text] of templatesOf(input.manifest)) files.set(fileOf(input.where, template), text);
  const objects: DesiredObject[] = [];
  const errors: SourceProblem[] = [];
  for (const file of files.keys()) {
    const rendered = renderManifests(files, file, {
      defaultNamespace: input.releaseNamespace,
      ...(input.kindScopes ? { kindScopes: input.kindScopes } : {}),
      ...(input.budget ? { budget: input.budget } : {}),
    });
    errors.push(...rendered.errors);
    if (rendered.stopped) return { objects: [], errors, stopped: true };
    for (const desired of rendered.objects) {
      if (desired.object.metadata?.annotations?.['helm.sh/hook'] !== undefined) continue;
      desired.source = { ...desired.source, kustomizations: [], fields: { '': input.origin } };
      objects.push(desired);
    }
  }
  return { objects, errors };
}
