// The declared order of src/core's folders, lowest first: a folder may import only folders listed
// before it. Stages read upward: facts (patterns, yaml, model, k8s), policy (config, health, classify),
// then what a repository holds (manifests, sources), what differs (ownership, diff, risk, emergency,
// plan), what to write (codify), the pipelines that run those in order, the report that formats it,
// the decisions (actions as data) the App executes, and the PR comment commands that read a
// reconcile's items and answer in its words.
// docs/architecture.md shows this list; test/architecture/core-order.test.ts checks both.
export const CORE_ORDER = [
  'patterns',
  'yaml',
  'model',
  'token',
  'k8s',
  'config',
  'health',
  'classify',
  'manifests',
  'charts',
  'sources',
  'render',
  'ownership',
  'diff',
  'risk',
  'emergency',
  'plan',
  'codify',
  'pipeline',
  'report',
  'decide',
  'commands',
] as const;

/** The core folder a repository-relative file belongs to (undefined outside src/core). */
export function coreFolderOf(file: string): string | undefined {
  return /^src\/core\/([^/]+)\//.exec(file)?.[1];
}

/** Imports that point at a folder not below the importer in `order` (each as `from → to (file → file)`). */
export function importsAgainstOrder(graph: Map<string, Map<string, string>>, order: readonly string[]): string[] {
  const rank = new Map(order.map((folder, index) => [folder, index]));
  const wrong: string[] = [];
  for (const [from, edges] of graph) {
    for (const [to, where] of edges) {
      const fromRank = rank.get(from);
      const toRank = rank.get(to);
      if (fromRank === undefined || toRank === undefined || toRank >= fromRank) {
        wrong.push(`${from} → ${to} (${where})`);
      }
    }
  }
  return wrong.sort();
}
