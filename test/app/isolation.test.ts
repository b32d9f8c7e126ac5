// The job workers (src/app/isolation): a task past its time limit, its heap limit or its output
// limit ends with the message a user reads and a killed worker, never a stuck App; a template
// override stopped by a limit gives way to the built-in template, naming the reason; one
// installation never holds every worker.
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/core/config/index.js';
import { overridesOf } from '../../src/core/report/index.js';
import {
  createIsolation,
  DEFAULT_JOB_LIMITS,
  JobLimitExceeded,
  type Isolation,
} from '../../src/app/isolation/index.js';
import type { PlanWork } from '../../src/app/plan/index.js';
import { manyConfigMaps, memoryHungryGenerator, nestedPartials } from '../support/hostile.js';

const isolations: Isolation[] = [];
afterEach(async () => {
  for (const isolation of isolations.splice(0)) await isolation.stop();
});

function isolation(limits: Partial<typeof DEFAULT_JOB_LIMITS>): Isolation {
  const made = createIsolation({ ...DEFAULT_JOB_LIMITS, ...limits });
  isolations.push(made);
  return made;
}

const STALE = { cluster: 'prod', now: '2026-12-02T12:00:00Z', staleAfter: '30m', configuredAt: '2026-12-02T10:00:00Z' };
/** 10^9 empty partial calls, nested 9 deep: within the depth limit, and endless. */
const ENDLESS = nestedPartials(9, 10, '');

function planWork(files: Record<string, string>): { plan: PlanWork } {
  const config = configSchema.parse({ clusters: [{ name: 'prod', path: 'app', defaultNamespace: 'web' }] });
  const headFiles = new Map(Object.entries(files));
  return {
    plan: {
      repository: 'acme/gitops',
      config,
      headFiles,
      baseFiles: new Map(),
      headSha: 'h',
      changed: [...headFiles.keys()],
      now: '2026-12-02T12:00:00Z',
      latest: new Map(),
    },
  };
}

async function stoppedBy(promise: Promise<unknown>): Promise<JobLimitExceeded> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JobLimitExceeded);
  return error as JobLimitExceeded;
}

describe('job workers', () => {
  it('renders an override in a worker, and a stopped one gives way to the built-in template with the reason', async () => {
    const workers = isolation({ templateTimeMs: 1_000 });
    const fine = await workers.document('acme', 'renderStaleAlert', STALE, {
      templates: overridesOf({ 'stale-alert': 'not reporting: {{text cluster}}' }),
    });
    expect(fine.body).toBe('not reporting: prod\n');
    const endless = await workers.document('acme', 'renderStaleAlert', STALE, {
      templates: overridesOf({ 'stale-alert': ENDLESS }),
    });
    expect(endless.body.split('\n\n')[0]).toBe(
      '> ⚠️ `.github/driftback/templates/stale-alert.hbs` could not be used (it rendered for more than 1 s); this is the built-in template. Fix the file on the default branch.',
    );
    expect(endless.title).toBe(fine.title);
  });

  it('kills a render past its heap limit, and the next job gets a new worker', async () => {
    const workers = isolation({ memoryMb: 64 });
    const work = planWork(
      Object.fromEntries(Object.entries(memoryHungryGenerator(100)).map(([p, t]) => [`app/${p}`, t])),
    );
    const error = await stoppedBy(workers.render('plan', work, 'acme'));
    expect(error.limit).toBe('memory');
    expect(error.message).toBe(
      'render stopped: it needed more than 64 MiB of memory, the limit of one job: split the cluster path or remove what it should not read',
    );
    const fine = (await workers.render('plan', planWork({ 'app/cm.yaml': manyConfigMaps('cm', 2) }), 'acme')) as {
      plans: unknown[];
    };
    expect(fine.plans).toHaveLength(1);
  });

  it('refuses a result larger than the output limit in the worker', async () => {
    const workers = isolation({ outputBytes: 1024 * 1024 });
    const error = await stoppedBy(
      workers.render('plan', planWork({ 'app/cm.yaml': manyConfigMaps('cm', 3_000) }), 'acme'),
    );
    expect(error.message).toBe(
      'render stopped: its result is larger than 1 MiB, the limit of one job: split the cluster path or remove what it should not read',
    );
  });

  it('one installation never holds every worker: another one is served while its tasks run', async () => {
    const workers = isolation({ workers: 2, templateTimeMs: 3_000 });
    const finished: string[] = [];
    const endless = (tenant: string) =>
      workers
        .document(tenant, 'renderStaleAlert', STALE, { templates: overridesOf({ 'stale-alert': ENDLESS }) })
        .then(() => finished.push(tenant));
    const hostile = [endless('mallory'), endless('mallory')];
    await workers
      .document('acme', 'renderStaleAlert', STALE, { templates: overridesOf({ 'stale-alert': 'ok' }) })
      .then(() => finished.push('acme'));
    await Promise.all(hostile);
    expect(finished).toEqual(['acme', 'mallory', 'mallory']);
  });
});
