// One manifest file → resources (used by plain directories and by kustomize `resources`).
import type { BuildContext } from './build-context.js';
import { loadYamlFileCached } from './parse-cache.js';
import { documentsToResources, type BuildResource } from './resource.js';

export function readResourceFile(path: string, context: BuildContext, kustomizations: string[]): BuildResource[] {
  const text = context.files.get(path);
  if (text === undefined) return [];
  context.filesRead.add(path);
  const loaded = loadYamlFileCached(path, text, context.cache, context.meter);
  context.problems.push(...loaded.problems);
  const result = documentsToResources(path, loaded.documents, kustomizations, text);
  context.problems.push(...result.errors);
  context.skipped.push(...result.skipped);
  return result.resources;
}
