// A pull request that sets a field Flux image automation writes (its line carries a setter marker,
// `# {"$imagepolicy": "<ns>:<policy>"}`, image-automation-controller pkg/update) gets a note: the
// ImageUpdateAutomation writes its policy's own latest image there again, so the value merged here
// lasts only until the automation's next run. The same rule as the drift side (classify/image-automation.ts).
import { imagePolicyMarkerAt } from '../classify/index.js';
import type { Plan, PlanWarning } from '../model/index.js';
import { at, field, shown } from './entry-warnings.js';

export function imagePolicyWarnings(plan: Pick<Plan, 'update'>, headFiles: ReadonlyMap<string, string>): PlanWarning[] {
  return plan.update.flatMap((entry) =>
    entry.changes.flatMap((change) => {
      const marker = entry.desired && imagePolicyMarkerAt(entry.desired, change.path, headFiles);
      if (!marker || change.op === 'remove') return [];
      const message =
        `This pull request sets ${field(entry.id, change)} to ${shown(change.desired, 120, change.segments)}, a field Flux image ` +
        `automation writes (ImagePolicy ${marker.policy}, marker at ${marker.file}:${marker.line}): the ` +
        "ImageUpdateAutomation writes the policy's own latest image there again at its next run. To hold this " +
        'version, pin the ImagePolicy or suspend the ImageUpdateAutomation.';
      return [
        { code: 'conflict' as const, id: entry.id, path: change.path, ...at(entry.desired, change.path), message },
      ];
    }),
  );
}
