// Config text → validated Config, or problems with a path and a line the user can go to.
import { LineCounter, isMap, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { configSchema, type Config, type ClusterConfig } from './schema.js';
import { formatZodPath } from '../model/snapshot.js';
import type { SourceProblem } from '../model/source.js';
import { expansionSize, MAX_ALIAS_NODES } from '../yaml/expansion-size.js';

export const CONFIG_PATH = '.github/driftback.yml';

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: SourceProblem[] };

/** The config used when a repository or CLI run has no config file. */
export function defaultConfig(): Config {
  return configSchema.parse({});
}

export function parseConfig(text: string, file = CONFIG_PATH): ConfigResult {
  const read = readYaml(text, file);
  if (!read.ok) return read;
  const result = configSchema.safeParse(read.raw);
  if (result.success) return { ok: true, config: result.data };
  return { ok: false, problems: result.error.issues.map((issue) => schemaProblem(issue, read, file)) };
}

type ReadYaml =
  { ok: true; raw: object; doc: Document.Parsed; lineCounter: LineCounter } | { ok: false; problems: SourceProblem[] };

/** The file's one mapping, or why it is not one: invalid YAML, an alias bomb, or another kind of value. */
function readYaml(text: string, file: string): ReadYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((error) => ({
        file,
        line: error.linePos?.[0].line,
        column: error.linePos?.[0].col,
        message: `invalid YAML: ${error.message.split('\n')[0]}`,
      })),
    };
  }
  const fail = (message: string): ReadYaml => ({ ok: false, problems: [{ file, line: 1, message }] });
  // yaml's maxAliasCount counts alias references, not what they expand to: sized first.
  const size = expansionSize(doc, Buffer.byteLength(text, 'utf8') + MAX_ALIAS_NODES);
  if (size.expanded - size.written > MAX_ALIAS_NODES)
    return fail(
      `invalid YAML: its aliases expand to more than ${MAX_ALIAS_NODES.toLocaleString('en-US')} nodes beyond what is written (an alias bomb?): write the values out`,
    );
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    return fail(`invalid YAML: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return fail('expected a mapping with clusters, drift, plan and pullRequests');
  return { ok: true, raw, doc, lineCounter };
}

type ConfigIssue = NonNullable<ReturnType<typeof configSchema.safeParse>['error']>['issues'][number];

/** A schema issue at the line of the key it is about; an unknown key is named, with what to do. */
function schemaProblem(
  issue: ConfigIssue,
  { doc, lineCounter }: Extract<ReadYaml, { ok: true }>,
  file: string,
): SourceProblem {
  const path = [...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.join(', ');
    return {
      file,
      line: lineOf(doc.contents, path, lineCounter, issue.keys[0]),
      field: formatZodPath([...path, issue.keys[0]]),
      message: `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}: remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling`,
    };
  }
  return { file, line: lineOf(doc.contents, path, lineCounter), field: formatZodPath(path), message: issue.message };
}

function lineOf(root: unknown, path: PropertyKey[], lines: LineCounter, key?: string): number | undefined {
  let node = root as Node | null;
  let line = node?.range ? lines.linePos(node.range[0]).line : undefined;
  for (const segment of key === undefined ? path : [...path, key]) {
    if (isMap(node)) {
      const pair = node.items.find((item) => (item.key as { value?: unknown })?.value === segment);
      if (!pair) break;
      const keyNode = pair.key as Node;
      if (keyNode?.range) line = lines.linePos(keyNode.range[0]).line;
      node = pair.value as Node;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment] as Node;
      if (node?.range) line = lines.linePos(node.range[0]).line;
    } else break;
  }
  return line;
}

export function findCluster(config: Config, name: string): ClusterConfig | undefined {
  return config.clusters?.find((cluster) => cluster.name === name);
}
