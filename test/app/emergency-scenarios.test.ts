// The emergency procedure end to end, on the `emergency` controller scenario with its own config (a Flux
// cluster at clusters/kind-dev and an Argo CD cluster at argocd/, rendered as their controllers do):
// suspend, change by hand, the drift PR opened at once and labelled, merged, resumed, and "verified"
// once the controller applied the merge; a suspension left past emergency.resumeWithin alerts once and
// the alert closes on resume; a fix undone by a resume alerts.
import { afterEach, describe, expect, it } from 'vitest';
import { drain, pushPayload, sendWebhook, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commentsOn, mergePullRequest, openPullRequest } from '../support/app-pulls.js';
import type { IssueRecord } from '../support/github/state.js';
import { goldenIn } from '../support/golden.js';
import { emergencyRepoFiles, emergencySnapshotText, type EmergencySnapshotName } from '../support/emergency-fixture.js';
import { issuesOf as issues, pullsOf as pulls, runWatch, ticked as checked } from '../support/emergency-app.js';

/** `test/app/emergency-golden/<name>`, byte for byte; `UPDATE_GOLDEN=1` rewrites it. */
const expectGolden = goldenIn(join(dirname(fileURLToPath(import.meta.url)), 'emergency-golden'));

/** The merge commits the fixture's controllers report having applied (B for Flux, C for Argo CD). */
const FIXTURE_MERGE_FLUX = '9d9a3d545f04f5513e4260e9f24877672dfab10c';
const FIXTURE_MERGE_ARGO = '0d7c4d578d43d3777f0dc352f8162409bce54ed0';

let h: AppHarness | undefined;
const clock = { now: new Date('2026-12-01T10:00:00Z') };
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(extra: Record<string, string> = {}): Promise<AppHarness> {
  const files = new Map([...emergencyRepoFiles(), ...Object.entries(extra)]);
  // The scenario's own config: kind-dev is Flux at clusters/kind-dev, kind-argo Argo CD at argocd/.
  h = await startAppHarness({ owner: 'acme', repo: 'emergency-gitops', files, now: () => clock.now });
  return h;
}

/**
 * Uploads a fixture snapshot as captured, the clock at its capture time. The merge commit the
 * fixture's controller names is the one the stand-in made when the PR was merged.
 */
async function upload(
  harness: AppHarness,
  name: EmergencySnapshotName,
  merge?: { fixture: string; actual: string },
  rewrite: Record<string, string> = {},
): Promise<void> {
  let text = merge ? emergencySnapshotText(name).replaceAll(merge.fixture, merge.actual) : emergencySnapshotText(name);
  for (const [from, to] of Object.entries(rewrite)) text = text.replaceAll(from, to);
  const snapshot = JSON.parse(text) as { capturedAt: string; repository: string; cluster: string };
  clock.now = new Date(snapshot.capturedAt);
  expect((await uploadSnapshot(harness, snapshot)).status).toBe(202);
  await drain(harness);
}

/** A fresh App that has received `names` in order; the emergency PR they opened, if any. */
async function startAfter(
  ...names: EmergencySnapshotName[]
): Promise<{ app: AppHarness; pr: IssueRecord | undefined }> {
  const app = await start();
  for (const name of names) await upload(app, name);
  return { app, pr: pulls(app)[0] };
}

async function suspendedSeconds(harness: AppHarness, cluster: string, kind: string): Promise<number | undefined> {
  const text = await (await fetch(`${harness.baseUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('driftback_suspended_seconds{') &&
        l.includes(`cluster="${cluster}"`) &&
        l.includes(`kind="${kind}"`) &&
        !l.includes('source=') &&
        l.includes('repository="acme/emergency-gitops"'),
    );
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('Flux: suspend, kubectl edit, PR at once, merge, resume, verified', () => {
  it('walks the procedure and comments "verified" once Flux applied the merge', async () => {
    const app = await start();
    await upload(app, 'flux-1-before');
    expect(pulls(app)).toEqual([]);

    await upload(app, 'flux-2-suspended');
    const [pr] = pulls(app);
    expect(pr?.labels).toEqual(['driftback', 'emergency']);
    expect(pr?.title).toBe('Emergency: Deployment/podinfo/podinfo memory on kind-dev');
    const body = pr!.body!;
    expect(body).toContain('## Emergency change');
    expect(body).toContain('`Kustomization/flux-system/apps` was suspended at 2026-12-01 10:02 UTC by `flux`.');
    // The deadline as a wall-clock time: suspended at 10:02, emergency.resumeWithin 8h.
    expect(body).toContain(
      '2. Then resume it (resume within 8h: by 18:02 UTC; after that driftback opens an alert): `flux resume kustomization apps -n flux-system`',
    );
    // Seen once: said as it is, never "persisted".
    expect(body).toContain('Someone changed these objects in `kind-dev` directly (seen in 1 snapshot).');
    expect(body).not.toContain('persisted');
    // Each fact once: the suspension's switch is not listed again among the reported changes.
    expect(body.match(/flux resume kustomization apps/g)).toHaveLength(1);
    expect(body).not.toContain('(suspended)');
    // Closing advice never loses the fix.
    expect(body).toContain('- **Do not close** this pull request while the cluster needs the fix');
    expect(body).not.toContain("the controller's next apply restores what Git says");
    // One row per change: the object and field, the live value, who and when (a long path may break).
    expect(body.replaceAll('<wbr>', '')).toContain(
      '| `Deployment/podinfo/podinfo`<br><code>spec.template.spec.containers\\[podinfod\\].resources.limits.memory</code> | `1Gi` | kubectl-edit<br>2026-12-01 10:05 UTC |',
    );
    expect(checked(body)).toEqual([]);
    expectGolden('flux-emergency-pull-request.md', body);
    expect(
      app.standIn.readFile('acme', 'emergency-gitops', 'driftback/kind-dev', 'apps/podinfo/deployment.yaml'),
    ).toContain('memory: 1Gi');
    // Someone else's PR for the same source, while it is suspended: its plan opens with the note.
    const deployment = emergencyRepoFiles().get('apps/podinfo/deployment.yaml')!;
    const other = await openPullRequest(
      app,
      'raise-cpu',
      { 'apps/podinfo/deployment.yaml': deployment.replace('cpu: 2000m', 'cpu: 3000m') },
      { title: 'Raise the memory limit' },
    );
    const plan = commentsOn(app, other).find((c) => c.includes('kind-dev'));
    expect(plan).toBeDefined();
    const note =
      'This source has been suspended since 2026-12-01 10:02 UTC by `flux`: merging changes nothing in the cluster until it is resumed';
    expect(plan).toContain(note);
    expect(plan!.indexOf(note)).toBeLessThan(plan!.indexOf('cpu'));

    await runWatch(app);
    const dashboard = issues(app).find((issue) => issue.title === 'driftback dashboard');
    expect(dashboard?.body).toContain(
      `- \`Kustomization/flux-system/apps\` since 10:02 UTC, by \`flux\`, emergency PR #${pr!.number}`,
    );
    // Suspended at 10:02:00, scraped at the capture time 10:10:00.
    expect(await suspendedSeconds(app, 'kind-dev', 'flux-kustomization')).toBe(480);
    clock.now = new Date('2026-12-01T10:20:00Z');
    expect(await suspendedSeconds(app, 'kind-dev', 'flux-kustomization')).toBe(1080);

    const mergeSha = await mergePullRequest(app, pr!.number);
    expect(checked(pulls(app)[0]!.body)).toEqual(['merged']);
    expect(commentsOn(app, pr!.number).some((c) => c.includes('verified'))).toBe(false);

    await upload(app, 'flux-3-resumed-after-merge', { fixture: FIXTURE_MERGE_FLUX, actual: mergeSha });
    expect(checked(pulls(app)[0]!.body)).toEqual(['merged', 'resumed', 'applied', 'in sync']);
    expect(await suspendedSeconds(app, 'kind-dev', 'flux-kustomization')).toBeUndefined();
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified: cluster and Git agree at'))).toEqual([
      expect.stringContaining(`verified: cluster and Git agree at \`${mergeSha}\``),
    ]);
    expect(issues(app).filter((issue) => issue.labels.includes('driftback-alert'))).toEqual([]);
  });
});

describe('Argo CD: automated sync off, kubectl scale, PR, merge, automated sync on, verified', () => {
  it('walks the procedure and comments "verified" once Argo CD synced the merge', async () => {
    const { app, pr } = await startAfter('argo-1-before', 'argo-2-autosync-off');
    expect(pr?.labels).toEqual(['driftback', 'emergency']);
    expect(pr?.title).toBe('Emergency: Deployment/guestbook/frontend replicas on kind-argo');
    // Removing `automated` leaves no managedFields entry: the first snapshot without it dates it.
    expect(pr!.body).toContain(
      '`Application/argocd/guestbook` was suspended no later than 2026-12-01 11:10 UTC (first seen then; nothing records who turned it off)',
    );
    expect(pr!.body).toContain(
      're-enable automated sync (resume within 8h: by 19:10 UTC; after that driftback opens an alert): `argocd app set guestbook --sync-policy automated`',
    );
    expect(pr!.body).toContain(
      '| `Deployment/guestbook/frontend`<br>`spec.replicas` | `5` | kubectl<br>2026-12-01 11:05 UTC |',
    );
    expect(
      app.standIn.readFile('acme', 'emergency-gitops', 'driftback/kind-argo', 'web/guestbook/frontend-deployment.yaml'),
    ).toContain('replicas: 5');

    const mergeSha = await mergePullRequest(app, pr!.number);
    expect(checked(pulls(app)[0]!.body)).toEqual(['merged']);
    await upload(app, 'argo-3-autosync-on-after-merge', { fixture: FIXTURE_MERGE_ARGO, actual: mergeSha });
    expect(checked(pulls(app)[0]!.body)).toEqual(['merged', 'resumed', 'applied', 'in sync']);
    expectGolden('argo-emergency-pull-request-verified.md', pulls(app)[0]!.body!);
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified:'))).toEqual([
      expect.stringContaining(`verified: cluster and Git agree at \`${mergeSha}\``),
    ]);
  });
});

describe("a repository's drift-pull-request template", () => {
  it('places the emergency procedure with the `emergency` partial and reads its model fields', async () => {
    const template = [
      '**{{text headline}}.**',
      '{{#each emergency}}',
      'Resume {{code source}} with {{code resume}} once merged{{#if checklist.merged}} (merged){{/if}}.',
      '{{/each}}',
      '{{> emergency}}Merge it.',
      '',
    ].join('\n');
    const app = await start({ '.github/driftback/templates/drift-pull-request.hbs': template });
    await upload(app, 'flux-1-before');
    await upload(app, 'flux-2-suspended');
    const body = pulls(app)[0]!.body!;
    expect(body).toMatch(/^\*\*1 object, 1 live change by kubectl-edit/);
    expect(body).toContain(
      'Resume `Kustomization/flux-system/apps` with `flux resume kustomization apps -n flux-system` once merged.\n## Emergency change\n',
    );
    expect(body).toContain('- [ ] merged');
    expect(body.indexOf('## Emergency change')).toBeLessThan(body.indexOf('Merge it.'));
  });
});

describe('a fix undone after the resume', () => {
  it('Flux resumed before the merge reverts the edit: an alert says the fix was undone, nothing is verified', async () => {
    const { app, pr } = await startAfter('flux-1-before', 'flux-2-suspended', 'flux-3b-resumed-without-merge');
    await runWatch(app);
    const alerts = issues(app).filter((issue) => issue.labels.includes('driftback-alert'));
    expect(alerts.map((issue) => [issue.title, issue.state])).toEqual([
      ['driftback: kind-dev: the emergency fix under flux-system/apps was undone', 'open'],
    ]);
    expect(alerts[0]!.body).toContain(
      '`Deployment/podinfo/podinfo` `spec.template.spec.containers[podinfod].resources.limits.memory`: the fix set `1Gi`',
    );
    expect(alerts[0]!.body).toContain(`resumed before its emergency pull request (#${pr!.number}) was merged`);
    expectGolden('alert-fix-undone.md', alerts[0]!.body!);
    expect(commentsOn(app, pr!.number).some((c) => c.startsWith('verified:'))).toBe(false);
    // Another snapshot of the same state: still one alert.
    await upload(app, 'flux-3b-resumed-without-merge');
    await runWatch(app);
    expect(issues(app).filter((issue) => issue.labels.includes('driftback-alert'))).toHaveLength(1);

    // The fix lands in Git by hand and Flux applies it: the value is back and nothing drifts, so the
    // watch closes the alert.
    const path = 'apps/podinfo/deployment.yaml';
    const manifest = emergencyRepoFiles().get(path)!.replace('memory: 512Mi', 'memory: 1Gi');
    const fixSha = app.standIn.pushCommit({
      owner: app.owner,
      repo: app.repo,
      branch: 'main',
      files: { [path]: manifest },
    });
    expect(await sendWebhook(app, 'push', pushPayload(app, 'main', fixSha))).toBe(200);
    await drain(app);
    await upload(app, 'flux-3-resumed-after-merge', { fixture: FIXTURE_MERGE_FLUX, actual: fixSha });
    await runWatch(app);
    const after = issues(app).filter((issue) => issue.labels.includes('driftback-alert'));
    expect(after.map((issue) => [issue.title, issue.state])).toEqual([
      ['driftback: kind-dev: the emergency fix under flux-system/apps was undone', 'closed'],
    ]);
    expect(commentsOn(app, after[0]!.number)).toEqual([
      `The fix of #${pr!.number} under \`flux-system/apps\` in \`kind-dev\` is back in the cluster. Closing.`,
    ]);
    // Another watch: nothing reopens.
    await runWatch(app);
    expect(issues(app).filter((issue) => issue.state === 'open' && issue.labels.includes('driftback-alert'))).toEqual(
      [],
    );
  });

  it('Argo CD automated sync turned on without the merge: self-heal reverts the scale, and the alert says so', async () => {
    const { app } = await startAfter('argo-1-before', 'argo-2-autosync-off', 'argo-3b-autosync-on-without-merge');
    await runWatch(app);
    const alerts = issues(app).filter((issue) => issue.labels.includes('driftback-alert'));
    expect(alerts.map((issue) => issue.title)).toEqual([
      'driftback: kind-argo: the emergency fix under argocd/guestbook was undone',
    ]);
    expect(alerts[0]!.body).toContain('`spec.replicas`: the fix set `5`');
  });
});

const suspendedAlerts = (harness: AppHarness): IssueRecord[] =>
  issues(harness).filter(
    (issue) => issue.title === 'driftback: kind-dev: Kustomization/flux-system/apps is still suspended',
  );

describe('a suspension left past emergency.resumeWithin', () => {
  it('opens one alert naming who suspended it and the PR, and closes it on resume', async () => {
    const { app, pr } = await startAfter('flux-1-before', 'flux-2-suspended');
    await runWatch(app);
    expect(suspendedAlerts(app)).toEqual([]);

    await upload(app, 'flux-2b-still-suspended');
    await runWatch(app);
    const [alert, ...more] = suspendedAlerts(app);
    expect(more).toEqual([]);
    expect(alert!.state).toBe('open');
    expect(alert!.labels).toEqual(['driftback', 'driftback-alert']);
    expect(alert!.body).toContain(
      'has been suspended for 9h 8m, longer than `emergency.resumeWithin` (8h). `flux` suspended it at 10:02 UTC.',
    );
    expect(alert!.body).toContain(`Its emergency pull request is #${pr!.number}: merge it, then resume.`);
    expect(alert!.body).toContain('To resume: `flux resume kustomization apps -n flux-system`');
    expectGolden('alert-still-suspended.md', alert!.body!);
    // A suspension is not a controller failing: no "not reconciling" alert beside it.
    expect(issues(app).filter((issue) => issue.title.endsWith('is not reconciling'))).toEqual([]);

    // The next watches and the next snapshot of the same state add nothing.
    clock.now = new Date('2026-12-01T19:20:00Z');
    await runWatch(app);
    await upload(app, 'flux-2b-still-suspended');
    await runWatch(app);
    expect(suspendedAlerts(app)).toHaveLength(1);

    const mergeSha = await mergePullRequest(app, pr!.number);
    await upload(app, 'flux-4-resumed-late', { fixture: FIXTURE_MERGE_FLUX, actual: mergeSha });
    await runWatch(app);
    expect(suspendedAlerts(app).map((issue) => issue.state)).toEqual(['closed']);
    expect(commentsOn(app, alert!.number).at(-1)).toContain('`flux-system/apps` in `kind-dev` reconciles again');
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified:'))).toHaveLength(1);
  });

  it('calls a suspension with no drift and no PR forgotten, naming who suspended it', async () => {
    const app = await start();
    const forgotten = JSON.parse(emergencySnapshotText('flux-2b-still-suspended')) as {
      items: Array<Record<string, unknown>>;
    };
    // The same cluster without the hand edit: Flux is suspended, nothing drifted.
    const before = JSON.parse(emergencySnapshotText('flux-1-before')) as {
      items: Array<{ kind: string; metadata: { name: string; namespace?: string } }>;
    };
    const podinfo = before.items.find((o) => o.kind === 'Deployment' && o.metadata.namespace === 'podinfo');
    forgotten.items = forgotten.items.map((o) =>
      (o as typeof podinfo)!.kind === 'Deployment' && (o as typeof podinfo)!.metadata.namespace === 'podinfo'
        ? podinfo!
        : o,
    );
    clock.now = new Date('2026-12-01T19:10:00Z');
    expect((await uploadSnapshot(app, forgotten as never)).status).toBe(202);
    await drain(app);
    expect(pulls(app)).toEqual([]);
    await runWatch(app);
    const [alert] = suspendedAlerts(app);
    expect(alert!.body).toContain('`flux` suspended it at 10:02 UTC.');
    expect(alert!.body).toContain(
      'There is no drift under it and no pull request waiting on it: a forgotten suspension.',
    );
  });
});

describe('a verified fix followed for emergency.followFor (default 7d)', () => {
  const undoneTitle = 'driftback: kind-dev: the emergency fix under flux-system/apps was undone';
  const alerts = (harness: AppHarness) => issues(harness).filter((issue) => issue.title === undoneTitle);

  /** flux-3b's Deployment (memory back at 512Mi, applied by kustomize-controller), seen a day after the verify. */
  const rolledBack = (capturedAt: string) => ({
    '2026-12-01T10:50:00Z': capturedAt,
    // The managedFields entry of kustomize-controller's apply that wrote 512Mi: a stale pipeline's rollback.
    '2026-12-01T10:45:04Z': '2026-12-02T09:00:00Z',
  });

  async function verified(): Promise<{ app: AppHarness; pr: number; mergeSha: string }> {
    const { app, pr } = await startAfter('flux-1-before', 'flux-2-suspended');
    const mergeSha = await mergePullRequest(app, pr!.number);
    await upload(app, 'flux-3-resumed-after-merge', { fixture: FIXTURE_MERGE_FLUX, actual: mergeSha });
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified:'))).toHaveLength(1);
    return { app, pr: pr!.number, mergeSha };
  }

  it('a value moved away after "verified" opens one alert with field, old and new value, manager and time; it closes when back', async () => {
    const { app, pr, mergeSha } = await verified();
    await runWatch(app);
    expect(alerts(app)).toEqual([]);

    await upload(app, 'flux-3b-resumed-without-merge', undefined, rolledBack('2026-12-02T10:00:00Z'));
    await runWatch(app);
    const [alert, ...more] = alerts(app);
    expect(more).toEqual([]);
    expect(alert!.state).toBe('open');
    expect(alert!.labels).toEqual(['driftback', 'driftback-alert']);
    expect(alert!.body).toContain(
      `The emergency fix of #${pr} under \`flux-system/apps\` in \`kind-dev\` was verified 2026-12-01 10:50 UTC; since then the cluster no longer holds it, while Git still does:`,
    );
    expect(alert!.body).toContain(
      '- `Deployment/podinfo/podinfo` `spec.template.spec.containers[podinfod].resources.limits.memory`: `1Gi` → `512Mi`, written by `kustomize-controller` at 2026-12-02 09:00 UTC',
    );
    // The same state again, a watch later: still one alert, not rewritten.
    const body = alert!.body;
    await upload(app, 'flux-3b-resumed-without-merge', undefined, rolledBack('2026-12-02T10:10:00Z'));
    await runWatch(app);
    expect(alerts(app).map((issue) => [issue.state, issue.body])).toEqual([['open', body]]);
    // No second "verified" on the PR.
    expect(commentsOn(app, pr).filter((c) => c.startsWith('verified:'))).toHaveLength(1);

    // The controller puts the merged value back: the alert closes, saying so.
    await upload(
      app,
      'flux-3-resumed-after-merge',
      { fixture: FIXTURE_MERGE_FLUX, actual: mergeSha },
      {
        '2026-12-01T10:50:00Z': '2026-12-02T10:20:00Z',
      },
    );
    await runWatch(app);
    expect(alerts(app).map((issue) => issue.state)).toEqual(['closed']);
    expect(commentsOn(app, alert!.number)).toEqual([
      `The fix of #${pr} under \`flux-system/apps\` in \`kind-dev\` is back in the cluster. Closing.`,
    ]);
  });

  it('Git changing the field closes the alert and the field is no longer followed', async () => {
    const { app, pr } = await verified();
    await upload(app, 'flux-3b-resumed-without-merge', undefined, rolledBack('2026-12-02T10:00:00Z'));
    await runWatch(app);
    expect(alerts(app).map((issue) => issue.state)).toEqual(['open']);

    // Someone decides 512Mi is right after all and says so in Git.
    const path = 'apps/podinfo/deployment.yaml';
    const files = { [path]: emergencyRepoFiles().get(path)! };
    const sha = app.standIn.pushCommit({ owner: app.owner, repo: app.repo, branch: 'main', files });
    expect(await sendWebhook(app, 'push', pushPayload(app, 'main', sha))).toBe(200);
    await drain(app);
    await upload(app, 'flux-3b-resumed-without-merge', undefined, rolledBack('2026-12-02T11:00:00Z'));
    await runWatch(app);
    const [alert] = alerts(app);
    expect(alert!.state).toBe('closed');
    expect(commentsOn(app, alert!.number)).toEqual([
      `Git now declares another value for \`spec.template.spec.containers[podinfod].resources.limits.memory\`: the fix of #${pr} under \`flux-system/apps\` in \`kind-dev\` is no longer followed there. Closing.`,
    ]);
    // The fix moving again is no alert: Git owns that field now.
    await upload(app, 'flux-3-resumed-after-merge', undefined, { '2026-12-01T10:50:00Z': '2026-12-02T12:00:00Z' });
    await runWatch(app);
    expect(alerts(app).map((issue) => issue.state)).toEqual(['closed']);
  });

  it('after the window, a moved value is no alert: the record is retired', async () => {
    const { app } = await verified();
    await upload(app, 'flux-3b-resumed-without-merge', undefined, rolledBack('2026-12-08T11:00:00Z'));
    await runWatch(app);
    expect(alerts(app)).toEqual([]);
  });
});

describe('a stopped controller (kustomize-controller scaled to 0) while Git changes', () => {
  const FIXTURE_A = '59520be0f121730245dbd292107027a33cd0a36a';
  // The Kustomization that applies the cluster's path (clusters/kind-dev) is `flux-system`.
  const title = 'driftback: kind-dev: flux-system/flux-system is not reconciling';

  /** kustomize-controller after `kubectl scale --replicas=0`: spec.replicas 0, the replica counts gone from status (omitempty). */
  function withControllerStopped(text: string): string {
    const snapshot = JSON.parse(text) as { items: Array<Record<string, any>> };
    for (const object of snapshot.items) {
      if (object.kind !== 'Deployment' || object.metadata.name !== 'kustomize-controller') continue;
      object.spec.replicas = 0;
      for (const field of ['readyReplicas', 'availableReplicas', 'replicas', 'updatedReplicas'])
        delete object.status[field];
    }
    return JSON.stringify(snapshot);
  }

  async function uploadText(harness: AppHarness, text: string, capturedAt: string): Promise<void> {
    const snapshot = JSON.parse(text) as { capturedAt: string };
    snapshot.capturedAt = capturedAt;
    clock.now = new Date(capturedAt);
    expect((await uploadSnapshot(harness, snapshot as never)).status).toBe(202);
    await drain(harness);
  }

  it('opens one alert naming the controller, since when, the pending commit and what to run; it closes once caught up', async () => {
    const app = await start();
    const repo = app.standIn.state.repo(app.owner, app.repo);
    const shaA = app.standIn.state.resolve(repo, 'main')!;
    const before = emergencySnapshotText('flux-1-before').replaceAll(FIXTURE_A, shaA);
    await uploadText(app, before, '2026-12-01T10:00:00Z');
    await runWatch(app);

    // The controller is stopped, then a change is merged.
    const path = 'apps/podinfo/deployment.yaml';
    const manifest = emergencyRepoFiles().get(path)!.replace('cpu: 2000m', 'cpu: 3000m');
    const shaB = app.standIn.pushCommit({
      owner: app.owner,
      repo: app.repo,
      branch: 'main',
      files: { [path]: manifest },
      message: 'Raise the podinfo CPU limit',
    });
    expect(await sendWebhook(app, 'push', pushPayload(app, 'main', shaB, shaA))).toBe(200);
    await drain(app);
    await uploadText(app, withControllerStopped(before), '2026-12-01T10:05:00Z');
    await runWatch(app);
    expect(issues(app).filter((issue) => issue.title === title)).toEqual([]);
    // The dashboard says the controller is not running.
    const dashboard = () => issues(app).find((issue) => issue.title === 'driftback dashboard')!.body!;
    expect(dashboard()).toContain(
      'its controller Deployment/flux-system/kustomize-controller has no ready replica (not running)',
    );

    // 3 × the 10m interval later, still stopped: one alert.
    await uploadText(app, withControllerStopped(before), '2026-12-01T10:36:00Z');
    await runWatch(app);
    const [alert, ...more] = issues(app).filter((issue) => issue.title === title);
    expect(more).toEqual([]);
    expect(alert!.body).toContain(
      '`Kustomization/flux-system/flux-system` in `kind-dev` is not reconciling: its controller Deployment/flux-system/kustomize-controller has no ready replica (not running).',
    );
    expect(alert!.body).toContain(
      `Commits waiting since 2026-12-01 10:05 UTC:\n\n- \`${shaB.slice(0, 7)}\` Raise the podinfo CPU limit`,
    );
    expect(alert!.body).toContain('- `kubectl -n flux-system scale deployment kustomize-controller --replicas=1`');
    expect(alert!.body).toContain('- `flux reconcile kustomization flux-system -n flux-system --with-source`');
    await uploadText(app, withControllerStopped(before), '2026-12-01T10:40:00Z');
    await runWatch(app);
    expect(issues(app).filter((issue) => issue.title === title)).toHaveLength(1);

    // Restarted: it applies HEAD, and the alert closes saying so.
    await uploadText(app, emergencySnapshotText('flux-1-before').replaceAll(FIXTURE_A, shaB), '2026-12-01T10:45:00Z');
    await runWatch(app);
    expect(
      issues(app)
        .filter((issue) => issue.title === title)
        .map((issue) => issue.state),
    ).toEqual(['closed']);
    expect(commentsOn(app, alert!.number)).toEqual([
      `\`flux-system/flux-system\` in \`kind-dev\` reconciles again (applied \`${shaB.slice(0, 7)}\`). Closing.`,
    ]);
    expect(dashboard()).not.toContain('no ready replica');
  });
});
