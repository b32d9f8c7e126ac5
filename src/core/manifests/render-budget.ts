// One budget per job: the YAML nodes, documents and bytes every render of a job reads, counted
// together, and the time it runs. A job renders many times (each GitOps source, each file of an Argo
// CD directory source, head and base of a pull request, codify's checks), so a budget per render call
// would let many calls each under it add up to more than the process holds; one shared budget stops
// the job instead, with a problem that says which limit and where. One file is bounded by
// MAX_MANIFEST_FILE_BYTES and one document's aliases by MAX_ALIAS_NODES; the App also runs each job
// in a worker whose time and memory are capped, for what happens between two charges.

export interface RenderLimits {
  /** Nodes (aliases expanded) of every document the job reads, in all. Default DEFAULT_MAX_RENDER_NODES. */
  maxNodes?: number;
  /** Documents (and generated objects) the job reads, in all. Default DEFAULT_MAX_RENDER_DOCUMENTS. */
  maxDocuments?: number;
  /** Bytes of files the job reads (a file read twice counts twice). Default DEFAULT_MAX_RENDER_BYTES. */
  maxBytes?: number;
  /** How long the job's renders may run, with the clock that measures it (milliseconds). No limit when absent. */
  time?: { budgetMs: number; now: () => number };
}

export interface RenderUsage {
  nodes?: number;
  documents?: number;
  bytes?: number;
}

/** A job's budget: every render of the job charges the same one. */
export interface RenderBudget {
  /** Counts what a render read from `file` and checks the clock; throws RenderBudgetExceeded past a limit. */
  charge(file: string, usage: RenderUsage): void;
  /** What the job has used so far. */
  used(): Required<RenderUsage>;
}

/**
 * Default 5,000,000 nodes: ~75,000 typical resources, each read once (a pull request's head and base
 * read most files twice). The engine benchmark's 10,000 resources are 0.7 million nodes.
 */
export const DEFAULT_MAX_RENDER_NODES = 5_000_000;
/** Default 200,000 documents: a job that reads more is a repository that lists files many times over. */
export const DEFAULT_MAX_RENDER_DOCUMENTS = 200_000;
/** Default 512 MiB of file text read by one job (files are at most 4 MiB each). */
export const DEFAULT_MAX_RENDER_BYTES = 512 * 1024 * 1024;

/** Thrown from inside a render when its job's budget runs out; renderManifests turns it into a problem. */
export class RenderBudgetExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderBudgetExceeded';
  }
}

const FIX = 'split the cluster path or remove what it should not read';

function over(file: string, what: string): RenderBudgetExceeded {
  return new RenderBudgetExceeded(`the render stopped at ${file}: ${what}; ${FIX}`);
}

export function renderBudget(limits: RenderLimits = {}): RenderBudget {
  const maxNodes = limits.maxNodes ?? DEFAULT_MAX_RENDER_NODES;
  const maxDocuments = limits.maxDocuments ?? DEFAULT_MAX_RENDER_DOCUMENTS;
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_RENDER_BYTES;
  const time = limits.time;
  const startedAt = time?.now();
  const used = { nodes: 0, documents: 0, bytes: 0 };
  const count = (n: number): string => n.toLocaleString('en-US');
  return {
    used: () => ({ ...used }),
    charge(file, usage) {
      used.nodes += usage.nodes ?? 0;
      used.documents += usage.documents ?? 0;
      used.bytes += usage.bytes ?? 0;
      if (used.nodes > maxNodes)
        throw over(file, `the files this job reads hold more than ${count(maxNodes)} YAML nodes, its budget`);
      if (used.documents > maxDocuments)
        throw over(file, `this job reads more than ${count(maxDocuments)} documents, its budget`);
      if (used.bytes > maxBytes)
        throw over(file, `this job reads more than ${Math.round(maxBytes / 1024 / 1024)} MiB of files, its budget`);
      if (time && startedAt !== undefined && time.now() - startedAt > time.budgetMs) {
        // Worded as the App words a job its worker stopped at the same limit.
        const seconds = Math.round(time.budgetMs / 1000);
        throw new RenderBudgetExceeded(
          `render stopped after ${seconds} s, the time limit of one job, at ${file}; ${FIX}`,
        );
      }
    },
  };
}
