// What `helm template` prints, split as Helm writes it: one document per template, each after a
// `# Source: <chart>/<template>` line. Read per template, so a file's limits apply per template and
// every object is placed at its template's path in the chart.

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
export function templateFile(chartDir: string, template: string): string {
  const inChart = template.includes('/') ? template.slice(template.indexOf('/') + 1) : template;
  return chartDir ? `${chartDir}/${inChart}` : inChart;
}
