// What a render or an evaluation left out: parts of the tree not rendered (a source whose build fails,
// a file that does not read, a Helm chart, a remote base) and documents not compared. The rest was
// compared, planned or codified; a result with a part left out is partial, and says so.
import type { NotRenderedSource, SkippedDocument, SourceReport } from '../model/index.js';
import type { ClusterRender } from '../render/index.js';

export interface PartialParts {
  /** Parts of the tree not rendered (each problem of a source not rendered among them). */
  notRendered: readonly NotRenderedSource[];
  /** Every source of the cluster, with its scope. */
  sources: readonly Pick<SourceReport, 'scope'>[];
  /** Documents of the repository not compared (a manifest with generateName), with why. */
  notCompared?: readonly SkippedDocument[];
  /** How file names are prefixed so they resolve from the working directory ('.': not at all). */
  displayRoot?: string;
}

/** What a render (a plan's head) left unrendered or uncompared. */
export function renderedParts(rendered: ClusterRender): PartialParts {
  const notCompared = rendered.skipped.filter((document) => document.code !== undefined);
  return { notRendered: rendered.notRendered ?? [], sources: rendered.sources, notCompared };
}
