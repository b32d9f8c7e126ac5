// End to end: risky drift appears in a cluster (a raw API client swaps an image to a registry the
// repository never uses) next to an ordinary hotfix (kubectl scale). The App alerts at once — a failing
// `driftback / security (prod)` check run on the default branch with a failure annotation on the
// image's line, the dashboard's top, the `driftback:security` label, the gauge — never codifies it, and
// lets go of every alert once the change is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/core/model/index.js';
import { FILES, liveProdHandEdited } from './plan-scenario.js';
import {
  drain,
  issuesTitled,
  OWNER,
  REPO,
  runWatch,
  startHarness,
  uploadSnapshot,
  type Harness,
} from './plan-harness.js';

let h: Harness;
const at = (time: string): void => void (h.clock.now = new Date(time));

/** prod as the applier left it, `kubectl scale deploy/api --replicas=5`, and (when `swapped`) curl's PATCH of web's image. */
const live = (swapped: boolean): KubeObject[] => liveProdHandEdited({ swapped });

const repo = () => h.standIn.state.repo(OWNER, REPO);
const head = (): string => repo().refs.get('refs/heads/main')!;
const securityRuns = () => [...repo().checkRuns.values()].filter((run) => run.name === 'driftback / security (prod)');
const pulls = () => [...repo().issues.values()].filter((issue) => issue.pull);
const dashboard = () => issuesTitled(h, 'driftback dashboard')[0]!;

async function riskyGauge(code: string): Promise<string | undefined> {
  const text = await (await fetch(`${h.baseUrl}/metrics`)).text();
  return text
    .split('\n')
    .find(
      (line) =>
        line.startsWith('driftback_risky_drift{') && line.includes('cluster="prod"') && line.includes(`code="${code}"`),
    )
    ?.split(' ')
    .at(-1);
}

beforeAll(async () => {
  h = await startHarness(FILES, '2026-12-02T12:00:00Z');
}, 60_000);
afterAll(async () => h?.close());

describe('risky drift in a cluster', () => {
  it('first snapshot: the check run fails at once, with the annotation on the line Git declares', async () => {
    at('2026-12-02T12:00:00Z');
    expect(await uploadSnapshot(h, 'prod', live(true))).toBe(202);
    await drain(h);
    const [run, ...others] = securityRuns();
    expect(others).toEqual([]);
    expect(run).toMatchObject({ headSha: head(), conclusion: 'failure' });
    expect(run!.output!.title).toBe("1 security-relevant change needs a person's decision");
    expect(run!.output!.summary).toContain('registry.evil.example:5000');
    expect(run!.annotations).toEqual([
      expect.objectContaining({
        path: 'clusters/prod/web.yaml',
        start_line: 18,
        annotation_level: 'failure',
        title: 'image-registry, unknown-manager: Deployment/shop/web',
      }),
    ]);
    // The scale waits for a second snapshot (drift.minSnapshots: 2); the risky change does not, and is
    // never codified: no pull request yet.
    expect(pulls()).toEqual([]);
  });

  it('the dashboard lists it at the top, labelled, and the gauge counts it', async () => {
    await runWatch(h);
    const issue = dashboard();
    expect(issue.labels).toEqual(['driftback', 'driftback:security']);
    const body = issue.body!;
    expect(body.indexOf("Security-relevant drift: needs a person's decision")).toBeLessThan(body.indexOf('### prod'));
    // A long field path breaks after each dot in the table cell (`<wbr>`), so the table fits the comment.
    expect(body).toContain(
      '`Deployment/shop/web`<br><code>spec.<wbr>template.<wbr>spec.<wbr>containers\\[web\\].<wbr>image</code>',
    );
    expect(await riskyGauge('image-registry')).toBe('1');
    expect(await riskyGauge('unknown-manager')).toBe('1');
    expect(await riskyGauge('privilege')).toBe('0');
  });

  it('second snapshot: the drift PR codifies the scale, lists the image first under a person’s decision, labelled', async () => {
    at('2026-12-02T12:10:00Z');
    expect(await uploadSnapshot(h, 'prod', live(true))).toBe(202);
    await drain(h);
    const [pr] = pulls();
    expect(pr!.labels).toEqual(['driftback', 'driftback:security']);
    const body = pr!.body!;
    expect(body.startsWith("### 🚨 Security-relevant drift: needs a person's decision")).toBe(true);
    expect(body).toContain('**image-registry**');
    expect(h.standIn.readFile(OWNER, REPO, 'driftback/prod', 'clusters/prod/api.yaml')).toContain('replicas: 5');
    expect(h.standIn.readFile(OWNER, REPO, 'driftback/prod', 'clusters/prod/web.yaml')).not.toContain('evil');
    // The same drift, the same HEAD: the check run is not written again.
    expect(securityRuns()).toHaveLength(1);
  });

  it('once the image is back, the alerts let go: success on the same HEAD, labels removed, gauge at 0', async () => {
    at('2026-12-02T12:20:00Z');
    expect(await uploadSnapshot(h, 'prod', live(false))).toBe(202);
    await drain(h);
    // A run that showed annotations is replaced by a new one on the same commit (GitHub shows the newest).
    const runs = securityRuns().sort((a, b) => a.id - b.id);
    expect(runs.map((run) => [run.headSha, run.conclusion])).toEqual([
      [head(), 'failure'],
      [head(), 'success'],
    ]);
    expect(pulls()[0]!.labels).toEqual(['driftback']);
    expect(pulls()[0]!.body).not.toContain('Security-relevant');
    await runWatch(h);
    expect(dashboard().labels).toEqual(['driftback']);
    expect(dashboard().body).not.toContain('Security-relevant');
    expect(await riskyGauge('image-registry')).toBe('0');
  });

  it('a cluster without risky drift costs no further check-run call', async () => {
    at('2026-12-02T12:30:00Z');
    expect(await uploadSnapshot(h, 'prod', live(false))).toBe(202);
    await drain(h);
    expect(securityRuns()).toHaveLength(2);
  });
});
