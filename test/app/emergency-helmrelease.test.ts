// The emergency procedure for a Flux HelmRelease, end to end through the real App (uploads, webhooks,
// the pinned Helm, the every-minute watch): `flux suspend helmrelease podinfo -n podinfo`, then
// `kubectl scale` of the Deployment its chart renders → the emergency PR at once (one snapshot),
// codifying the count into the release's `replicaCount` value, with who/when, the deadline and `flux
// resume helmrelease` → merged → resumed, helm-controller releasing the merged values
// (status.lastAttemptedGeneration, history[0] deployed at status.lastAttemptedRevision) after
// kustomize-controller applied the merge commit → "verified". Then the alerts around it: the release
// left suspended past emergency.resumeWithin (one alert, closed on resume), and the verified fix undone
// by a later scale (one alert, closed when the count is back or when Git declares another one). The
// snapshots are what the controllers write (test/support/helmrelease-emergency.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { diffLines } from 'diff';
import { startAppHarness, type AppHarness } from '../support/app.js';
import { commentsOn, mergePullRequest } from '../support/app-pulls.js';
import { issuesOf, issuesTitled, pullsOf, pushToMain, runWatch, ticked } from '../support/emergency-app.js';
import {
  isDeployment,
  RELEASE,
  RELEASE_PATH,
  releaseItems,
  releaseRepository,
  renderedRelease,
  uploadRelease,
  type ReleaseScale,
  type ReleaseState,
} from '../support/helmrelease-emergency.js';
import type { KubeObject } from '../../src/core/model/index.js';

const clock = { now: new Date('2026-12-02T02:50:00Z') };
let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<AppHarness> {
  h = await startAppHarness({ owner: 'acme', repo: 'platform', files: releaseRepository(), now: () => clock.now });
  return h;
}

/** A snapshot of `prod` at `capturedAt` with `objects` as the controllers and `edit` left them. */
const upload = (
  app: AppHarness,
  capturedAt: string,
  objects: KubeObject[],
  release: ReleaseState,
  sha: string,
  edit?: ReleaseScale,
) => uploadRelease(app, clock, capturedAt, releaseItems(objects, release, sha, edit));

const headOf = (app: AppHarness) => app.standIn.state.resolve(app.standIn.state.repo(app.owner, app.repo), 'main')!;
/** 03:00 `flux suspend helmrelease podinfo -n podinfo`: generation 2, nothing released since. */
const SUSPENDED: ReleaseState = { generation: 2, released: 1, releases: 1, suspendedAt: '2026-12-02T03:00:00Z' };
/** helm-controller upgraded the release from the merged values. */
const UPGRADED: ReleaseState = { generation: 4, released: 4, releases: 2 };

/**
 * Installed at 02:55, suspended at 03:00, scaled to 5 at 03:02 (`kubectl scale`): the 03:05 snapshot
 * opens the emergency PR. The objects rendered before, the PR's number.
 */
async function suspendedAndScaled(app: AppHarness): Promise<{ before: KubeObject[]; pr: number }> {
  const before = renderedRelease(releaseRepository());
  await upload(app, '2026-12-02T02:55:00Z', before, { generation: 1, released: 1, releases: 1 }, headOf(app));
  expect(pullsOf(app)).toEqual([]);
  await upload(app, '2026-12-02T03:05:00Z', before, SUSPENDED, headOf(app), { replicas: 5 });
  const [pr, ...more] = pullsOf(app);
  expect(more).toEqual([]);
  return { before, pr: pr!.number };
}

/** The PR merged, resumed, and released by helm-controller at 03:25: "verified". */
async function mergedAndReleased(app: AppHarness, pr: number): Promise<{ merged: KubeObject[]; mergeSha: string }> {
  const mergeSha = await mergePullRequest(app, pr);
  const edited = app.standIn.readFile(app.owner, app.repo, 'main', RELEASE_PATH)!;
  const merged = renderedRelease(releaseRepository(edited));
  await upload(app, '2026-12-02T03:25:00Z', merged, UPGRADED, mergeSha);
  expect(commentsOn(app, pr).filter((c) => c.startsWith('verified:'))).toHaveLength(1);
  return { merged, mergeSha };
}

describe('Flux HelmRelease: suspend, kubectl scale, PR at once into the chart value, merge, resume, verified', () => {
  it('codifies replicaCount, says how to resume the HelmRelease, and comments "verified" once helm-controller released the merge', async () => {
    const app = await start();
    const { before, pr: number } = await suspendedAndScaled(app);
    const pr = pullsOf(app)[0]!;
    expect(pr.labels).toEqual(['driftback', 'emergency']);
    const deployment = before.find(isDeployment)!.metadata.name;
    expect(pr.title).toBe(`Emergency: Deployment/podinfo/${deployment} replicas on prod`);
    const body = pr.body!;
    expect(body).toContain('`HelmRelease/podinfo/podinfo` was suspended at 2026-12-02 03:00 UTC by `flux`.');
    expect(body).toContain(
      '2. Then resume it (resume within 8h: by 11:00 UTC; after that driftback opens an alert): `flux resume helmrelease podinfo -n podinfo`',
    );
    expect(body.match(/flux resume helmrelease podinfo -n podinfo/g)).toHaveLength(1);
    expect(body).not.toContain('kustomization');
    expect(body).toContain('(seen in 1 snapshot)');
    expect(body).not.toContain('persisted');
    expect(body).toContain('kubectl<br>2026-12-02 03:02 UTC');
    // The count is codified into the release's value, not into the rendered Deployment.
    const edited = app.standIn.readFile(app.owner, app.repo, 'driftback/prod', RELEASE_PATH) ?? '';
    const changed = diffLines(RELEASE, edited).filter((part) => part.added || part.removed);
    expect(changed.map((part) => `${part.added ? '+' : '-'}${part.value}`)).toEqual([
      '-    replicaCount: 2\n',
      '+    replicaCount: 5\n',
    ]);

    const mergeSha = await mergePullRequest(app, number);
    expect(commentsOn(app, number).some((c) => c.startsWith('verified:'))).toBe(false);

    // Resumed, but helm-controller has not released the merged values yet (generation 4, released 2):
    // applied is not ticked, nothing is verified.
    const merged = renderedRelease(releaseRepository(edited));
    const pending = { generation: 4, released: 2, releases: 1 };
    await upload(app, '2026-12-02T03:20:00Z', merged, pending, mergeSha, { replicas: 5 });
    expect(ticked(pullsOf(app)[0]!.body)).toEqual(['merged', 'resumed']);
    expect(commentsOn(app, number).some((c) => c.startsWith('verified:'))).toBe(false);

    // helm-controller upgraded the release from the merged values: verified, once.
    await upload(app, '2026-12-02T03:25:00Z', merged, UPGRADED, mergeSha);
    expect(ticked(pullsOf(app)[0]!.body)).toEqual(['merged', 'resumed', 'applied', 'in sync']);
    await upload(app, '2026-12-02T03:35:00Z', merged, UPGRADED, mergeSha);
    expect(commentsOn(app, number).filter((c) => c.startsWith('verified:'))).toEqual([
      expect.stringContaining(`verified: cluster and Git agree at \`${mergeSha}\``),
    ]);
    expect(pullsOf(app)[0]!.body).not.toContain('(suspended)');
  }, 180_000);
});

describe('a HelmRelease left suspended past emergency.resumeWithin (8h)', () => {
  const title = 'driftback: prod: HelmRelease/podinfo/podinfo is still suspended';

  it('opens one alert naming who suspended it, its PR and `flux resume helmrelease`, and closes it on resume', async () => {
    const app = await start();
    const { before, pr } = await suspendedAndScaled(app);
    clock.now = new Date('2026-12-02T10:59:00Z');
    await runWatch(app);
    expect(issuesTitled(app, title)).toEqual([]);

    // Nobody resumed: the 11:10 snapshot, past the 11:00 deadline, and the watch.
    await upload(app, '2026-12-02T11:10:00Z', before, SUSPENDED, headOf(app), { replicas: 5 });
    await runWatch(app);
    const [alert, ...more] = issuesTitled(app, title);
    expect(more).toEqual([]);
    expect([alert!.state, alert!.labels]).toEqual(['open', ['driftback', 'driftback-alert']]);
    expect(alert!.body).toContain(
      '`HelmRelease/podinfo/podinfo` in `prod` has been suspended for 8h 10m, longer than `emergency.resumeWithin` (8h). `flux` suspended it at 03:00 UTC.',
    );
    expect(alert!.body).toContain(`Its emergency pull request is #${pr}: merge it, then resume.`);
    expect(alert!.body).toContain('To resume: `flux resume helmrelease podinfo -n podinfo`');
    expect(alert!.body).not.toContain('kustomization');
    // A suspension is not a controller failing: no "not reconciling" alert beside it.
    expect(issuesOf(app).filter((issue) => issue.title.endsWith('is not reconciling'))).toEqual([]);
    // The next snapshot and watch of the same state add nothing.
    await upload(app, '2026-12-02T11:20:00Z', before, SUSPENDED, headOf(app), { replicas: 5 });
    await runWatch(app);
    expect(issuesTitled(app, title)).toHaveLength(1);

    // Merged, resumed and released at 11:40: the alert closes, and the fix is verified.
    const mergeSha = await mergePullRequest(app, pr);
    const edited = app.standIn.readFile(app.owner, app.repo, 'main', RELEASE_PATH)!;
    await upload(app, '2026-12-02T11:40:00Z', renderedRelease(releaseRepository(edited)), UPGRADED, mergeSha);
    await runWatch(app);
    expect(issuesTitled(app, title).map((issue) => issue.state)).toEqual(['closed']);
    expect(commentsOn(app, alert!.number)).toEqual([
      expect.stringContaining('`podinfo/podinfo` in `prod` reconciles again'),
    ]);
    expect(commentsOn(app, pr).filter((c) => c.startsWith('verified:'))).toHaveLength(1);
  }, 180_000);
});

describe('a verified HelmRelease fix undone within emergency.followFor', () => {
  const title = 'driftback: prod: the emergency fix under podinfo/podinfo was undone';

  it('someone scales the Deployment again: one alert with the field, the values, who and when; it closes when the count is back', async () => {
    const app = await start();
    const { pr } = await suspendedAndScaled(app);
    const { merged, mergeSha } = await mergedAndReleased(app, pr);
    await runWatch(app);
    expect(issuesTitled(app, title)).toEqual([]);

    // The next morning, 09:00, `kubectl scale --replicas=2` of the chart's Deployment.
    const scaled = { replicas: 2, at: '2026-12-03T09:00:00Z' };
    await upload(app, '2026-12-03T09:05:00Z', merged, UPGRADED, mergeSha, scaled);
    await runWatch(app);
    const [alert, ...more] = issuesTitled(app, title);
    expect(more).toEqual([]);
    expect([alert!.state, alert!.labels]).toEqual(['open', ['driftback', 'driftback-alert']]);
    const deployment = merged.find(isDeployment)!.metadata.name;
    expect(alert!.body).toContain(
      `The emergency fix of #${pr} under \`podinfo/podinfo\` in \`prod\` was verified 2026-12-02 03:25 UTC; since then the cluster no longer holds it, while Git still does:`,
    );
    expect(alert!.body).toContain(
      `- \`Deployment/podinfo/${deployment}\` \`spec.replicas\`: \`5\` → \`2\`, written by \`kubectl\` at 2026-12-03 09:00 UTC`,
    );
    // The same state a snapshot later: still one alert, not rewritten.
    const body = alert!.body;
    await upload(app, '2026-12-03T09:15:00Z', merged, UPGRADED, mergeSha, scaled);
    await runWatch(app);
    expect(issuesTitled(app, title).map((issue) => [issue.state, issue.body])).toEqual([['open', body]]);
    // The scale persisted (two snapshots): a drift PR proposes the new count in the release's value.
    const drift = pullsOf(app).filter((pull) => pull.number !== pr);
    expect(drift.map((pull) => [pull.title, pull.state])).toEqual([
      [`driftback: prod — 1 live change to Deployment/podinfo/${deployment}`, 'open'],
    ]);
    expect(app.standIn.readFile(app.owner, app.repo, 'driftback/prod', RELEASE_PATH)).toContain('replicaCount: 2');

    // Scaled back to 5 (helm-controller's value again): closed, saying so.
    await upload(app, '2026-12-03T09:30:00Z', merged, UPGRADED, mergeSha);
    await runWatch(app);
    expect(issuesTitled(app, title).map((issue) => issue.state)).toEqual(['closed']);
    expect(commentsOn(app, alert!.number)).toEqual([
      `The fix of #${pr} under \`podinfo/podinfo\` in \`prod\` is back in the cluster. Closing.`,
    ]);
    // Nothing drifts any more: the drift PR closes too.
    expect(pullsOf(app).map((pull) => pull.state)).toEqual(['closed', 'closed']);
  }, 180_000);

  it('Git declaring another replicaCount closes the alert, and the count is no longer followed', async () => {
    const app = await start();
    const { pr } = await suspendedAndScaled(app);
    const { merged, mergeSha } = await mergedAndReleased(app, pr);
    await upload(app, '2026-12-03T09:05:00Z', merged, UPGRADED, mergeSha, { replicas: 2, at: '2026-12-03T09:00:00Z' });
    await runWatch(app);
    expect(issuesTitled(app, title).map((issue) => issue.state)).toEqual(['open']);

    // Two is right after all, and Git says so; helm-controller releases it.
    clock.now = new Date('2026-12-03T09:20:00Z');
    const sha = await pushToMain(app, { [RELEASE_PATH]: RELEASE }, 'Two podinfo replicas are enough\n');
    const two = renderedRelease(releaseRepository());
    const released = { generation: 5, released: 5, releases: 3 };
    await upload(app, '2026-12-03T09:30:00Z', two, released, sha);
    await runWatch(app);
    const [alert] = issuesTitled(app, title);
    expect(alert!.state).toBe('closed');
    expect(commentsOn(app, alert!.number)).toEqual([
      `Git now declares another value for \`spec.replicas\`: the fix of #${pr} under \`podinfo/podinfo\` in \`prod\` is no longer followed there. Closing.`,
    ]);
    // Scaled to 5 again: no alert, Git owns the count now.
    await upload(app, '2026-12-03T09:40:00Z', two, released, sha, { replicas: 5, at: '2026-12-03T09:35:00Z' });
    await runWatch(app);
    expect(issuesTitled(app, title).map((issue) => issue.state)).toEqual(['closed']);
  }, 180_000);
});
