// An Argo CD Application behind the repository's HEAD, through the real App (uploads, push webhooks, the
// every-minute watch) on the `emergency` scenario's kind-argo cluster: a commit whose automated sync the
// API server refuses leaves the Application OutOfSync at HEAD with its last sync at the commit before;
// past 3 × timeout.reconciliation (argocd-cm's default 180s: the 15m floor) one alert says why, lists the
// commits waiting and the `argocd app sync` to run, and closes once a sync catches up. An Application
// OutOfSync at HEAD because of a hand change, HEAD having moved only outside its path, is drift (its
// emergency PR), not behind.
import { afterEach, describe, expect, it } from 'vitest';
import { startAppHarness, type AppHarness } from '../support/app.js';
import { commentsOn } from '../support/app-pulls.js';
import { emergencyRepoFiles, emergencySnapshotText, type EmergencySnapshotName } from '../support/emergency-fixture.js';
import { issuesOf, issuesTitled, pullsOf, pushToMain, runWatch, uploadAtCapture } from '../support/emergency-app.js';

/** The scenario's commits (test/fixtures/controllers/emergency/expected.md), read as the stand-in's. */
const FIXTURE = {
  a: '59520be0f121730245dbd292107027a33cd0a36a',
  g: '4f4b359587e6ccd8387f8b3fe55d4b305df03ef9',
  h: '1af53e6d96a470430dae84db84ac3f4d52899bc9',
  x: '22507963fbbfe3a68a2aa3d37fc374c4affade14',
};
const TITLE = 'driftback: kind-argo: argocd/guestbook is not reconciling';
const FRONTEND = 'web/guestbook/frontend-deployment.yaml';

const clock = { now: new Date('2026-12-01T11:00:00Z') };
let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<{ app: AppHarness; shas: Record<string, string> }> {
  h = await startAppHarness({
    owner: 'acme',
    repo: 'emergency-gitops',
    files: emergencyRepoFiles(),
    now: () => clock.now,
  });
  const a = h.standIn.state.resolve(h.standIn.state.repo(h.owner, h.repo), 'main')!;
  return { app: h, shas: { [FIXTURE.a]: a } };
}

/** Uploads the scenario's snapshot with its commits read as the stand-in's, captured at `capturedAt` when given. */
async function upload(
  app: AppHarness,
  name: EmergencySnapshotName,
  shas: Record<string, string>,
  capturedAt?: string,
): Promise<void> {
  let text = emergencySnapshotText(name);
  for (const [from, to] of Object.entries(shas)) text = text.replaceAll(from, to);
  const snapshot = JSON.parse(text) as { capturedAt: string; repository: string; cluster: string };
  await uploadAtCapture(app, clock, capturedAt ? { ...snapshot, capturedAt } : snapshot);
}

/** The watch run at `at`. */
async function watchAt(app: AppHarness, at: string): Promise<void> {
  clock.now = new Date(at);
  await runWatch(app);
}

const behindAlerts = (app: AppHarness) => issuesTitled(app, TITLE);

describe('an Argo CD Application OutOfSync at HEAD whose sync fails', () => {
  it('alerts once past 3 × timeout.reconciliation with the reason, the commits waiting and `argocd app sync`; closes on catch-up', async () => {
    const { app, shas } = await start();
    await upload(app, 'argo-1-before', shas);
    await watchAt(app, '2026-12-01T11:01:00Z');
    expect(behindAlerts(app)).toEqual([]);

    // 11:20 G changes frontend's selector, which is immutable: Argo CD's automated sync of G fails.
    clock.now = new Date('2026-12-01T11:20:00Z');
    const selector = emergencyRepoFiles().get(FRONTEND)!.replaceAll('tier: frontend', 'tier: web');
    shas[FIXTURE.g] = await pushToMain(app, { [FRONTEND]: selector }, 'Label the frontend tier web\n');
    await upload(app, 'argo-9-sync-failed-at-head', shas);
    await watchAt(app, '2026-12-01T11:31:00Z');
    // 11 minutes after HEAD moved: within the 15m threshold.
    expect(behindAlerts(app)).toEqual([]);

    await upload(app, 'argo-9-sync-failed-at-head', shas, '2026-12-01T11:40:00Z');
    await watchAt(app, '2026-12-01T11:41:00Z');
    const [alert, ...more] = behindAlerts(app);
    expect(more).toEqual([]);
    expect([alert!.state, alert!.labels]).toEqual(['open', ['driftback', 'driftback-alert']]);
    const body = alert!.body!;
    expect(body).toContain(
      "`Application/argocd/guestbook` in `kind-argo` is OutOfSync at the repository's HEAD for longer than 15m: sync failed: one or more objects failed to apply, reason: Deployment.apps &quot;frontend&quot; is invalid: spec.selector",
    );
    // Argo CD's message ends with its own full stop: one, not two.
    expect(body).toContain('field is immutable (retried 5 times).\n');
    expect(body).toContain(`- \`${shas[FIXTURE.g]!.slice(0, 7)}\` Label the frontend tier web`);
    expect(body).toContain('- `argocd app sync argocd/guestbook`');
    // A failed sync is not a hand change: nothing is proposed for Git.
    expect(pullsOf(app)).toEqual([]);

    // Another snapshot and watch of the same state: still one alert.
    await upload(app, 'argo-9-sync-failed-at-head', shas, '2026-12-01T11:44:00Z');
    await watchAt(app, '2026-12-01T11:44:30Z');
    expect(behindAlerts(app)).toHaveLength(1);

    // 11:45 H reverts G; the automated sync catches up at H: the alert closes, saying so.
    clock.now = new Date('2026-12-01T11:45:00Z');
    shas[FIXTURE.h] = await pushToMain(app, { [FRONTEND]: emergencyRepoFiles().get(FRONTEND)! }, 'Revert the tier\n');
    await upload(app, 'argo-10-synced-head', shas);
    await watchAt(app, '2026-12-01T11:51:00Z');
    expect(behindAlerts(app).map((issue) => issue.state)).toEqual(['closed']);
    expect(commentsOn(app, alert!.number)).toEqual([
      `\`argocd/guestbook\` in \`kind-argo\` reconciles again (applied \`${shas[FIXTURE.h]!.slice(0, 7)}\`). Closing.`,
    ]);
    await watchAt(app, '2026-12-01T11:52:00Z');
    expect(behindAlerts(app).map((issue) => issue.state)).toEqual(['closed']);
  });
});

describe('an Argo CD Application OutOfSync at HEAD by a hand change', () => {
  it('is drift, not behind: HEAD moved only outside its path', async () => {
    const { app, shas } = await start();
    await upload(app, 'argo-1-before', shas);
    // Automated sync off and `kubectl scale --replicas=5`: the emergency PR.
    await upload(app, 'argo-2-autosync-off', shas);
    const [pr, ...morePulls] = pullsOf(app);
    expect(morePulls).toEqual([]);
    expect(pr!.title).toBe('Emergency: Deployment/guestbook/frontend replicas on kind-argo');

    // 11:20 X changes apps/podinfo only; Argo CD compares guestbook at X: OutOfSync by the scale alone.
    clock.now = new Date('2026-12-01T11:20:00Z');
    const podinfo = 'apps/podinfo/deployment.yaml';
    const commented = `# podinfo\n${emergencyRepoFiles().get(podinfo)!}`;
    shas[FIXTURE.x] = await pushToMain(app, { [podinfo]: commented }, 'Say what podinfo is\n');
    await upload(app, 'argo-2c-autosync-off-unrelated-commit', shas);
    await watchAt(app, '2026-12-01T11:41:00Z');
    expect(behindAlerts(app)).toEqual([]);
    expect(issuesOf(app).filter((issue) => issue.title.endsWith('is not reconciling'))).toEqual([]);
    // The drift is the emergency PR's, still open and still proposing the scale.
    expect(pullsOf(app).map((pull) => [pull.number, pull.state])).toEqual([[pr!.number, 'open']]);
    expect(app.standIn.readFile('acme', 'emergency-gitops', 'driftback/kind-argo', FRONTEND)).toContain('replicas: 5');
  });
});
