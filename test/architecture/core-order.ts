// The declared order of src/core's folders, lowest first: a folder may import only folders listed
// before it. Stages read upward: facts (patterns, yaml, model, k8s), policy (config, health, classify),
// then what a repository holds (manifests, sources), what differs (ownership, diff, risk, emergency,
// plan), what to write (codify), the pipelines that run those in order, the report that formats it,
// the decisions (actions as data) the App executes, and the PR comment commands that read a
// reconcile's items and answer in its words.
// core-order.test.ts checks the order; CORE_STAGES below groups it for the picture in
// docs/architecture.md (architecture-doc.test.ts checks the grouping and the picture).
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

/**
 * The declared order, grouped into the stages a newcomer reads the core by; together they list every
 * folder of CORE_ORDER once, in its order. A folder added to CORE_ORDER goes into one of them.
 */
export const CORE_STAGES: ReadonlyArray<{ name: string; folders: readonly string[] }> = [
  { name: 'facts', folders: ['patterns', 'yaml', 'model', 'token', 'k8s'] },
  { name: 'policy', folders: ['config', 'health', 'classify'] },
  { name: 'render: desired state', folders: ['manifests', 'charts', 'sources', 'render'] },
  { name: 'compare: desired × live', folders: ['ownership', 'diff', 'risk'] },
  { name: 'emergency · plan · codify', folders: ['emergency', 'plan', 'codify'] },
  { name: 'pipelines', folders: ['pipeline'] },
  { name: 'report', folders: ['report'] },
  { name: 'actions', folders: ['decide', 'commands'] },
];

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
