// Hostile inputs a repository can hold, shared by the tests of each limit that stops them.

/** Inline partials p0…p<levels>, each calling the one below `width` times; `{{> p<levels>}}` renders width^levels leaves. */
export function nestedPartials(levels: number, width: number, leaf: string): string {
  const lines = [`{{#*inline "p0"}}${leaf}{{/inline}}`];
  for (let i = 1; i <= levels; i++) lines.push(`{{#*inline "p${i}"}}${`{{> p${i - 1}}}`.repeat(width)}{{/inline}}`);
  return `${lines.join('\n')}\n{{> p${levels}}}\n`;
}

/** `count` small ConfigMaps in one file, named `<prefix>-<i>`: 9 YAML nodes each. */
export function manyConfigMaps(prefix: string, count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${prefix}-${i}\ndata:\n  k: v\n`,
  ).join('---\n');
}

/**
 * A kustomization whose every patch targets every one of its ConfigMaps: `count`² patch applications
 * from a few hundred KB, minutes of work that no file or node budget sees.
 */
export function quadraticPatches(count: number): Record<string, string> {
  const docs = Array.from(
    { length: count },
    (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  k: v\n`,
  );
  const patches = Array.from(
    { length: count },
    (_, i) =>
      `  - target: {kind: ConfigMap, name: "cm-.*"}\n    patch: |\n      - op: add\n        path: /data/p${i % 10}\n        value: "${i}"\n`,
  );
  return {
    'kustomization.yaml': `resources: [cms.yaml]\npatches:\n${patches.join('')}`,
    'cms.yaml': docs.join('---\n'),
  };
}

/**
 * A kustomization whose secretGenerator base64-encodes one 3.9 MiB file `copies` times: few nodes and
 * documents, and (at 100 copies) 390 MiB read, so only the memory limit stops it.
 */
export function memoryHungryGenerator(copies: number): Record<string, string> {
  const files = Array.from({ length: copies }, (_, i) => `      - k${i}=big.txt`).join('\n');
  return {
    'kustomization.yaml': `secretGenerator:\n  - name: blob\n    files:\n${files}\n`,
    'big.txt': 'x'.repeat(3.9 * 1024 * 1024),
  };
}
