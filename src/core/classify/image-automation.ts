// Fields Flux image automation writes: a manifest line that carries an image-automation setter marker
// (`# {"$imagepolicy": "<namespace>:<policy>"}`, with `:tag`, `:name` or `:digest` for part of the
// image; image-automation-controller's setters, fluxcd/image-automation-controller pkg/update). Its
// ImageUpdateAutomation writes the policy's latest image there; a hand change to the live field
// (`kubectl set image`, a rollback) is reported with the policy that owns it, never codified.
import { summarize } from './summary.js';
import {
  lineStartsOf,
  type DiffResult,
  type DesiredObject,
  type FieldChange,
  type ResourceDiff,
} from '../model/index.js';

const MARKER = /#\s*\{\s*"\$imagepolicy"\s*:\s*"([^"]+)"\s*\}/;

/** The marker on a line: the ImagePolicy (`flux-system/podinfo`) and the part it sets. */
export interface ImagePolicyMarker {
  policy: string;
  part: 'image' | 'tag' | 'name' | 'digest';
  file: string;
  line: number;
}

/** The setter marker on the line that declares `path` of `desired`, or undefined. */
export function imagePolicyMarkerAt(
  desired: DesiredObject,
  path: string,
  files: ReadonlyMap<string, string>,
): ImagePolicyMarker | undefined {
  const location = desired.source.fields[path]?.location;
  const text = location ? files.get(location.file) : undefined;
  if (!location || text === undefined) return undefined;
  const starts = lineStartsOf(text);
  const lineText = text.slice(starts[location.line - 1] ?? 0, starts[location.line] ?? text.length);
  const setter = MARKER.exec(lineText)?.[1];
  if (!setter) return undefined;
  const [namespace, name, part] = setter.split(':');
  if (!namespace || !name) return undefined;
  const known = part === 'tag' || part === 'name' || part === 'digest' ? part : 'image';
  return { policy: `${namespace}/${name}`, part: known, file: location.file, line: location.line };
}

/** What the automation does next, in words, for a hand change to a field it writes. */
export function imageAutomationReason(marker: ImagePolicyMarker): string {
  return (
    `written by Flux image automation (ImagePolicy ${marker.policy}, marker at ${marker.file}:${marker.line}): ` +
    "never codified — the next apply restores Git's value, and the ImageUpdateAutomation keeps writing the " +
    "policy's own latest image there; to hold a version, pin the ImagePolicy or suspend the ImageUpdateAutomation"
  );
}

function setAside(resource: ResourceDiff, files: ReadonlyMap<string, string>): ResourceDiff {
  const desired = resource.desired;
  if (!desired || resource.changes.length === 0) return resource;
  const moved: FieldChange[] = [];
  const changes = resource.changes.filter((change) => {
    const marker = change.op === 'add' ? undefined : imagePolicyMarkerAt(desired, change.path, files);
    if (marker)
      moved.push({ ...change, reported: { code: 'image-automation', reason: imageAutomationReason(marker) } });
    return !marker;
  });
  if (moved.length === 0) return resource;
  const status = resource.status === 'modified' && changes.length === 0 ? 'in-sync' : resource.status;
  return { ...resource, changes, status, reported: [...(resource.reported ?? []), ...moved] };
}

/** The diff with every change to a field image automation writes moved to the reported changes. */
export function setImageAutomationAside(diff: DiffResult, files: ReadonlyMap<string, string>): DiffResult {
  const resources = diff.resources.map((resource) => setAside(resource, files));
  if (resources.every((resource, i) => resource === diff.resources[i])) return diff;
  return { ...diff, resources, summary: summarize(resources) };
}
