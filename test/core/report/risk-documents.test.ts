// What a person reads about the tampering scenario (test/fixtures/controllers/tampering), as golden
// files: the drift pull request (risky drift first, held for a decision; the one change a
// `drift.allowRisky` entry allows codified with its reason), `driftback diff --format markdown`, the
// dashboard's top section, and the `driftback / security` check run with its failure annotations.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/config/index.js';
import { riskyDrift } from '../../../src/core/risk/index.js';
import { reconcileDrift, type DriftInput } from '../../../src/core/pipeline/index.js';
import {
  renderDashboard,
  renderDriftMarkdown,
  renderDriftPullRequest,
  renderSecurityCheck,
} from '../../../src/core/report/index.js';
import { isBalanced } from '../../../src/core/report/index.js';
import { scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';
import { expectGolden } from './golden.js';

const files = scenarioRepository('tampering');
const ALLOW = `drift:
  allowRisky:
    - code: privilege
      kinds: [CronJob]
      names: [report]
      reason: the nightly report runs as root until 0.10
`;

function evaluate() {
  const parsed = parseConfig(files.get('.github/driftback.yml')! + ALLOW);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const snapshot = scenarioSnapshot('tampering', 'tampering');
  const input: DriftInput = {
    snapshot,
    config: parsed.config,
    cluster: parsed.config.clusters![0]!,
    files,
    history: [],
    minSnapshots: 1,
    declined: new Set(),
  };
  const evaluation = reconcileDrift(input);
  if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
  return { evaluation, snapshot };
}

describe('documents about risky drift (golden)', () => {
  const { evaluation, snapshot } = evaluate();
  const [group] = evaluation.groups;

  it('the drift pull request: risky drift first, the allowed change codified with its reason', () => {
    const body = renderDriftPullRequest({
      cluster: 'kind',
      codified: group!.codify.codified,
      reported: group!.codify.reported,
      drift: group!.result,
      snapshot: { id: 'snap-7', capturedAt: snapshot.capturedAt! },
    });
    expectGolden('drift-pull-request-risky.md', body);
    expect(body.startsWith("### 🚨 Security-relevant drift: needs a person's decision")).toBe(true);
    expect(body).toContain('privilege allowed (drift.allowRisky: the nightly report runs as root until 0.10)');
    // Held-back items are listed once, under the decision, not again under "Reported, not codified".
    expect(body.replaceAll('<wbr>', '').match(/registry\.evil\.example/g)).toHaveLength(1);
    expect(isBalanced(body)).toBe(true);
  });

  it('driftback diff --format markdown', () => {
    expectGolden('drift-markdown-risky.md', renderDriftMarkdown(evaluation.drift, { capturedAt: snapshot.capturedAt }));
  });

  it('the dashboard: every cluster’s risky drift at the top', () => {
    const risky = riskyDrift(evaluation.drift).map((item) => ({
      key: item.key,
      ...(item.change ? { path: item.change.path, segments: item.change.segments } : {}),
      ...(item.manager ? { manager: item.manager } : {}),
      ...(item.time ? { time: item.time } : {}),
      risk: item.risk.filter((entry) => !entry.allowed),
    }));
    const body = renderDashboard({
      now: '2026-12-01T12:50:00Z',
      configErrors: [],
      clusters: [
        {
          name: 'kind',
          lastSnapshotAt: snapshot.capturedAt,
          staleAfter: '30m',
          resourcesInScope: snapshot.items.length,
          driftByCause: { human: 5, unknown: 1 },
          conflicts: [],
          ignored: [],
          risky,
          degraded: [],
          reconcilers: [],
          openPullRequests: [{ number: 12 }],
        },
      ],
    });
    expectGolden('dashboard-risky.md', body);
    expect(body.indexOf('Security-relevant drift')).toBeLessThan(body.indexOf('### kind'));
  });

  it('the security check run: failure, one annotation per risky change on the line Git declares', () => {
    const output = renderSecurityCheck('kind', evaluation.drift);
    expectGolden('security-check.json', JSON.stringify(output, null, 2) + '\n');
    expect(output.conclusion).toBe('failure');
    expect(output.annotations.every((annotation) => annotation.annotation_level === 'failure')).toBe(true);
    const worker = output.annotations.find((annotation) => annotation.title.endsWith('Deployment/shop/worker'))!;
    // apps/shop/worker.yaml line 26: `image: ghcr.io/acme/worker:2.1.0` of the worker container (not the init container's).
    expect([worker.path, worker.start_line]).toEqual(['apps/shop/worker.yaml', 26]);
    expect(files.get('apps/shop/worker.yaml')!.split('\n').slice(24, 26)).toEqual([
      '        - name: worker',
      '          image: ghcr.io/acme/worker:2.1.0',
    ]);
  });

  it('a security check too long to list its one risky change counts it as one item', () => {
    const drift = structuredClone(evaluation.drift);
    const resource = drift.resources.find((r) => r.changes.some((c) => c.risk?.some((x) => !x.allowed)))!;
    const change = resource.changes.find((c) => c.risk?.some((x) => !x.allowed))!;
    change.risk = [{ ...change.risk![0]!, allowed: undefined, why: 'x'.repeat(70_000) }];
    const one = { ...drift, resources: [{ ...resource, risk: undefined, changes: [change] }], owned: [] };
    expect(renderSecurityCheck('kind', one).summary).toContain('\n1 item: see the annotations and the dashboard.\n');
  });

  it('the check run turns to success once nothing waits for a decision', () => {
    const calm = renderSecurityCheck('kind', { ...evaluation.drift, resources: [], owned: [] });
    expect(calm).toMatchObject({ conclusion: 'success', annotations: [] });
  });
});
