// The dashboard and alert issues honour the repository's template overrides
// (`.github/driftback/templates/<name>.hbs` on the default branch), like the drift pull request and
// the plan comment: an override that works replaces the built-in text, one that fails falls back to
// the built-in template with a warning naming the file, and the templates are read from the blob
// cache once fetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { FILES, liveProd } from './plan-scenario.js';
import { issuesTitled, OWNER, REPO, runWatch, startHarness, uploadSnapshot, type Harness } from './plan-harness.js';
import { nestedPartials } from '../support/hostile.js';

const TEMPLATES = '.github/driftback/templates/';
const BLOB_ROUTE = 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}';

let h: Harness;
const at = (time: string): void => void (h.clock.now = new Date(time));

/** A Flux Kustomization applying clusters/prod whose build fails. */
function failingKustomization(): KubeObject {
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'prod', namespace: 'flux-system' },
    spec: {
      path: './clusters/prod',
      interval: '10m',
      prune: true,
      sourceRef: { kind: 'GitRepository', name: 'platform' },
    },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'BuildFailed',
          message: 'kustomize build failed',
          lastTransitionTime: '2026-12-02T15:00:00Z',
        },
      ],
    },
  };
}

beforeAll(async () => {
  h = await startHarness(
    {
      ...FILES,
      [`${TEMPLATES}dashboard.hbs`]:
        'Our clusters:\n{{#each clusters}}\n- {{code name}}: {{plural resources "resource"}}\n{{/each}}\n',
      [`${TEMPLATES}stale-alert.hbs`]:
        '{{text cluster}} has been silent for {{text age}} (allowed: {{code staleAfter}}).\n',
      [`${TEMPLATES}not-reconciling-alert.hbs`]: '{{#if reason}}{{nosuchhelper resource}}{{/if}}\n',
    },
    '2026-12-02T12:00:00Z',
  );
}, 60_000);
afterAll(async () => h?.close());

describe('template overrides for the dashboard and alert issues', () => {
  it('renders the dashboard with the repository template, fetching each template blob once', async () => {
    expect(await uploadSnapshot(h, 'prod', liveProd(), '2026-12-02T11:55:00Z')).toBe(202);
    await runWatch(h);
    const [dashboard] = issuesTitled(h, 'driftback dashboard');
    expect(dashboard.body).toMatch(/^Our clusters:\n\n?- `prod`: \d+ resources\n- `edge`: 0 resources\n/);
    expect(dashboard.body).not.toContain('could not be used');

    // A new snapshot makes the dashboard due again: the templates come from the cache.
    at('2026-12-02T12:05:00Z');
    h.standIn.resetCalls();
    expect(await uploadSnapshot(h, 'prod', liveProd())).toBe(202);
    await runWatch(h);
    expect(h.standIn.callsTo(BLOB_ROUTE)).toBe(0);
    expect(issuesTitled(h, 'driftback dashboard')[0].body).toMatch(/^Our clusters:/);
  });

  it('opens the not-reporting alert with the repository template', async () => {
    at('2026-12-02T12:40:00Z');
    await runWatch(h);
    const [alert] = issuesTitled(h, 'driftback: prod is not reporting');
    expect(alert.body).toMatch(/^prod has been silent for 35m \(allowed: `30m`\)\.\n/);
  });

  it('falls back to the built-in not-reconciling alert, saying which file failed and why', async () => {
    at('2026-12-02T15:00:00Z');
    expect(await uploadSnapshot(h, 'prod', [...liveProd(), failingKustomization()])).toBe(202);
    await runWatch(h);
    at('2026-12-02T16:05:00Z');
    expect(await uploadSnapshot(h, 'prod', [...liveProd(), failingKustomization()])).toBe(202);
    await runWatch(h);
    const [alert] = issuesTitled(h, 'driftback: prod: flux-system/prod is not reconciling');
    expect(alert.body).toContain(`\`${TEMPLATES}not-reconciling-alert.hbs\` could not be used`);
    expect(alert.body).toContain('nosuchhelper');
    expect(alert.body).toContain('`flux get kustomization prod -n flux-system`');
  });

  it('the scheduled watch survives a 1.9 KB dashboard template that would render 2^40 times', async () => {
    h.standIn.pushCommit({
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      files: { [`${TEMPLATES}dashboard.hbs`]: nestedPartials(40, 2, 'x') },
    });
    at('2026-12-02T16:10:00Z');
    expect(await uploadSnapshot(h, 'prod', liveProd())).toBe(202);
    await runWatch(h);
    const [dashboard] = issuesTitled(h, 'driftback dashboard');
    expect(dashboard.body).toContain(
      `\`${TEMPLATES}dashboard.hbs\` could not be used (its partials nest deeper than 16 levels); this is the built-in template`,
    );
  });
});
