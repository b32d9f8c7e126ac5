// What a job worker runs: a reconcile's drift pipeline, a pull request's plans, or a document with a
// repository's template override. Each is a core function of values under one render budget for the
// whole job, its clock the job's time limit (the App kills the worker shortly after, should a step
// between two charges of the budget run on).
import { join } from 'node:path';
import type { ChartOutput, ChartRenderer } from '../../core/charts/index.js';
import { loadChartCredentials } from '../../helm/credentials.js';
import type { ChartFetchOptions } from '../../helm/fetch.js';
import { locateHelm } from '../../helm/locate.js';
import { createChartRenderer } from '../../helm/renderer.js';
import { renderBudget, type RenderLimits } from '../../core/manifests/index.js';
import { reconcileDrift, type DriftInput } from '../../core/pipeline/index.js';
import { renderHere, type DocumentName } from '../isolation/documents.js';
import { planPullRequest, type PlanWork } from '../plan/build-plans.js';

export interface RenderWork {
  /** The core render budget's limits (nodes, documents, bytes); its time is the task's. */
  render?: Omit<RenderLimits, 'time'>;
}

export type ReconcileWork = RenderWork & { drift: Omit<DriftInput, 'renderBudget'> };
export type PlanTaskWork = RenderWork & { plan: PlanWork };

/** Helm, found once per worker; charts rendered by this worker are cached for its later jobs. */
const helm = locateHelm();
const chartCache = new Map<string, ChartOutput>();

/** A comma-separated host list from the environment. */
function hostList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean);
}

/**
 * The job's chart renderer (none without Helm: charts are then reported, not rendered). `credentials`:
 * whether private chart repositories' credentials may be used — never for a fork's pull request, whose
 * plan would otherwise show a private chart's output to whoever opened it.
 */
function jobCharts(timeLimitMs: number, credentials = true): ChartRenderer | undefined {
  if (!helm.found) return undefined;
  const chartsDir = process.env.DRIFTBACK_CHARTS_DIR;
  // Repository charts are fetched only where the operator allows it: the App's network is not a tenant's.
  const fetch = process.env.DRIFTBACK_FETCH_CHARTS === 'true';
  const credentialsFile = process.env.DRIFTBACK_CHART_CREDENTIALS;
  const options: ChartFetchOptions = {
    cacheDir: join(process.env.DATA_DIR ?? './data', 'charts'),
    // Private and internal addresses are refused unless the operator names them (a chart repository inside).
    allowPrivate: hostList(process.env.DRIFTBACK_FETCH_ALLOW_PRIVATE),
    plainHttp: hostList(process.env.DRIFTBACK_FETCH_PLAIN_HTTP),
    ...(credentials && credentialsFile ? { credentials: loadChartCredentials(credentialsFile) } : {}),
  };
  return createChartRenderer({
    helm: helm.helm,
    deadlineMs: Date.now() + timeLimitMs,
    cache: chartCache,
    ...(chartsDir ? { chartsDir } : {}),
    ...(fetch ? { fetch: options } : {}),
  });
}

function jobBudget(work: RenderWork, timeLimitMs: number) {
  return renderBudget({ ...work.render, time: { budgetMs: timeLimitMs, now: Date.now } });
}

const TASKS: Record<string, (input: never, timeLimitMs: number) => unknown> = {
  reconcile: (work: ReconcileWork, timeLimitMs: number) =>
    reconcileDrift({ ...work.drift, renderBudget: jobBudget(work, timeLimitMs), charts: jobCharts(timeLimitMs) }),
  plan: (work: PlanTaskWork, timeLimitMs: number) =>
    planPullRequest(work.plan, jobBudget(work, timeLimitMs), jobCharts(timeLimitMs, !work.plan.fork)),
  document: (work: { name: DocumentName; args: never }) => renderHere(work.name, work.args),
};

export function runTask(task: string, input: unknown, timeLimitMs: number): unknown {
  if (!Object.hasOwn(TASKS, task)) throw new Error(`no task "${task}" (known: ${Object.keys(TASKS).join(', ')})`);
  return TASKS[task]!(input as never, timeLimitMs);
}
