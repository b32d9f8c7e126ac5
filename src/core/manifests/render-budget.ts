// A render's budget: how many nodes its documents may expand to in all, and until when it may run.
// One file is bounded by MAX_MANIFEST_FILE_BYTES and one document's aliases by MAX_ALIAS_NODES;
// this bounds the whole render, so a pull request that adds many large files (or a kustomization
// that lists one file many times) stops with a problem instead of taking the process down.

export interface RenderBudget {
  /** Nodes (expanded) all documents read by one render may hold. Default DEFAULT_MAX_RENDER_NODES. */
  maxNodes?: number;
  /** How long one render may run, with the clock that measures it (milliseconds). No limit when absent. */
  time?: { budgetMs: number; now: () => number };
}

/**
 * Default 5,000,000 nodes: ~75,000 typical resources. The engine benchmark's 50,000 resources are
 * 3.4 million nodes (35 MB of YAML) and peak at 2.2 GB, so the default keeps one render near 3 GB.
 */
export const DEFAULT_MAX_RENDER_NODES = 5_000_000;

/** Thrown from inside a render when its budget runs out; renderManifests turns it into a problem. */
export class RenderBudgetExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderBudgetExceeded';
  }
}

export interface RenderMeter {
  /** Counts a document's expanded nodes (read from `file`) and checks the clock. */
  charge(file: string, nodes: number): void;
}

export function renderMeter(budget: RenderBudget = {}): RenderMeter {
  const maxNodes = budget.maxNodes ?? DEFAULT_MAX_RENDER_NODES;
  const time = budget.time;
  const startedAt = time?.now();
  let used = 0;
  return {
    charge(file, nodes) {
      used += nodes;
      if (used > maxNodes) {
        throw new RenderBudgetExceeded(
          `the render stopped at ${file}: the files it reads hold more than ${maxNodes.toLocaleString('en-US')} YAML nodes, the budget of one render; split the cluster's path or remove what it should not read`,
        );
      }
      if (time && startedAt !== undefined && time.now() - startedAt > time.budgetMs) {
        throw new RenderBudgetExceeded(
          `the render stopped at ${file}: it ran longer than its time budget of ${Math.round(time.budgetMs / 1000)} s; split the cluster's path or remove what it should not read`,
        );
      }
    },
  };
}
