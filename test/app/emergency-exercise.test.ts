// The emergency exercise as an on-call engineer walks it, end to end through the real App (webhooks,
// uploads, the every-minute watch) and the GitHub stand-in, with the clock moved forward hours: a Flux
// cluster (`flux suspend kustomization apps`, kubectl edit) and an Argo CD cluster (automated sync
// turned off, kubectl scale), each through suspend → hand fix → snapshot → emergency PR → deadline
// passed → still-suspended alert → merge + resume → verified → the fix undone a day later → alert →
// restored → alert closed; then on both an HPA added while Git declares replicas (warned on the PR's plan
// and on the dashboard) → replicas removed (quiet) → the controller (kustomize-controller,
// argocd-application-controller) scaled to 0 while a commit lands (one not-reconciling alert, no drift
// PR for the scale) → restarted (the alert closed). Each step asserts what a person sees on GitHub
// (titles, bodies, labels, states) and what the App did not write. The snapshots are the `emergency`
// controller scenario's, written as Flux and Argo CD write them
// (test/fixtures/controllers/_build/scenarios/emergency.ts), with the scenario's commits read as the
// stand-in's; the files the pull requests add are in its `changes/`.
// docs/reviewing.md walks the same steps.
import { afterEach, describe, expect, it } from 'vitest';
import { drain, pushPayload, sendWebhook, startAppHarness, uploadSnapshot, type AppHarness } from '../support/app.js';
import { commentsOn, mergePullRequest, openPullRequest } from '../support/app-pulls.js';
import type { IssueRecord } from '../support/github/state.js';
import {
  emergencyChange,
  emergencyRepoFiles,
  emergencySnapshotText,
  type EmergencySnapshotName,
} from '../support/emergency-fixture.js';
import { runWatch, ticked } from '../support/emergency-app.js';

/** The merge commits the fixture's controllers report having applied (B for Flux, C for Argo CD). */
const FIXTURE_MERGE = {
  flux: '9d9a3d545f04f5513e4260e9f24877672dfab10c',
  argo: '0d7c4d578d43d3777f0dc352f8162409bce54ed0',
};

const clock = { now: new Date('2026-12-01T09:00:00Z') };
let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(): Promise<AppHarness> {
  h = await startAppHarness({
    owner: 'acme',
    repo: 'emergency-gitops',
    files: emergencyRepoFiles(),
    now: () => clock.now,
  });
  return h;
}

/** Uploads a fixture snapshot with its texts rewritten (capture time, merge commit), the clock at its capture time. */
async function upload(
  app: AppHarness,
  name: EmergencySnapshotName,
  rewrite: Record<string, string> = {},
): Promise<void> {
  let text = emergencySnapshotText(name);
  for (const [from, to] of Object.entries(rewrite)) text = text.replaceAll(from, to);
  const snapshot = JSON.parse(text) as { capturedAt: string; repository: string; cluster: string };
  clock.now = new Date(snapshot.capturedAt);
  expect((await uploadSnapshot(app, snapshot)).status).toBe(202);
  await drain(app);
}

/** The every-minute watch, run once at `at` (alerts and the dashboard). */
async function watchAt(app: AppHarness, at: string): Promise<void> {
  clock.now = new Date(at);
  await runWatch(app);
}

const all = (app: AppHarness): IssueRecord[] => [...app.standIn.state.repo(app.owner, app.repo).issues.values()];
const pulls = (app: AppHarness) => all(app).filter((issue) => issue.pull);
/**
 * The alert issues about `cluster` (`driftback: kind-dev …`). The scenario's config lists both clusters;
 * each test uploads for one, so the other one's "is not reporting" alert is left aside.
 */
const alerts = (app: AppHarness, cluster: string) =>
  all(app).filter(
    (issue) =>
      !issue.pull && issue.labels.includes('driftback-alert') && issue.title.startsWith(`driftback: ${cluster}`),
  );
const dashboard = (app: AppHarness) => all(app).find((issue) => issue.title === 'driftback dashboard')?.body ?? '';

/** The file at the default branch's HEAD of the stand-in. */
const fileAtHead = (app: AppHarness, path: string): string => app.standIn.readFile(app.owner, app.repo, 'main', path)!;
/** Pull requests driftback opened (labelled `driftback`). */
const driftbackPulls = (app: AppHarness) => pulls(app).filter((issue) => issue.labels.includes('driftback'));
const statusLine = (app: AppHarness, cluster: string) =>
  dashboard(app)
    .split('\n')
    .find((line) => line.startsWith(`- **${cluster}**:`));

/** What steps 8–11 change and expect on one cluster: its files, the fixture's commits, the texts it must read. */
interface AutoscalingCase {
  cluster: string;
  /** `flux` or `argo`: the prefix of the scenario's snapshots. */
  prefix: 'flux' | 'argo';
  /** The fixture's commits: the emergency merge and D (HPA added), E (replicas removed), F (a comment). */
  fixture: { merge: string; d: string; e: string; f: string };
  /** The pull request adding the HPA, from the files at HEAD. */
  autoscale: (at: (path: string) => string) => Record<string, string>;
  /** The manifest that declares replicas and the line the dashboard points at. */
  workload: { path: string; line: number; key: string; hpa: string };
  /** The line that declares replicas in `workload.path` at HEAD. */
  replicasLine: string;
  stopped: { title: string; source: string; controller: string; command: string; reported: string };
}

const FLUX_CASE: AutoscalingCase = {
  cluster: 'kind-dev',
  prefix: 'flux',
  fixture: {
    merge: FIXTURE_MERGE.flux,
    d: '33d0b45e7d795feb79069ec78505d2ee27e69cba',
    e: 'cd0ecdd735c35474e92ac44f12b9fe53e1bcee6b',
    f: '0f14ce09602d6b7f8d7472ff03578ad17896eb40',
  },
  autoscale: (at) => ({
    'apps/podinfo/hpa.yaml': emergencyChange('apps/podinfo/hpa.yaml'),
    'apps/podinfo/kustomization.yaml': at('apps/podinfo/kustomization.yaml').replace(
      '  - service.yaml',
      '  - service.yaml\n  - hpa.yaml',
    ),
    'apps/podinfo/deployment.yaml': at('apps/podinfo/deployment.yaml').replace(
      '  minReadySeconds: 3',
      '  replicas: 2\n  minReadySeconds: 3',
    ),
  }),
  workload: {
    path: 'apps/podinfo/deployment.yaml',
    line: 6,
    key: 'Deployment/podinfo/podinfo',
    hpa: 'podinfo/podinfo',
  },
  replicasLine: '  replicas: 2\n',
  stopped: {
    title: 'driftback: kind-dev: flux-system/flux-system is not reconciling',
    source: 'flux-system/flux-system',
    controller: 'Deployment/flux-system/kustomize-controller',
    command: 'kubectl -n flux-system scale deployment kustomize-controller --replicas=1',
    // gotk-components.yaml declares replicas 1: the scale to 0 is a switch, never proposed for Git.
    reported:
      '- `Deployment/flux-system/kustomize-controller` `spec.replicas` by `kubectl` at 14:30 UTC: emergency switch (`kubectl scale … --replicas=0`): kustomize-controller runs no pod',
  },
};

const ARGO_CASE: AutoscalingCase = {
  cluster: 'kind-argo',
  prefix: 'argo',
  fixture: {
    merge: FIXTURE_MERGE.argo,
    d: '12e243f4ee298fce9957492b609fe83b7359ac70',
    e: 'b6590ed9b4d237203f371fdbaa0966da7848a6be',
    f: 'be026317d0f1cf23690adc2525e221e07445459a',
  },
  // A directory source: the new file is all it takes; the emergency merge left `replicas: 5` in Git.
  autoscale: () => ({ 'web/guestbook/frontend-hpa.yaml': emergencyChange('web/guestbook/frontend-hpa.yaml') }),
  workload: {
    path: 'web/guestbook/frontend-deployment.yaml',
    line: 10,
    key: 'Deployment/guestbook/frontend',
    hpa: 'guestbook/frontend',
  },
  replicasLine: '  replicas: 5\n',
  stopped: {
    title: 'driftback: kind-argo: argocd/guestbook is not reconciling',
    source: 'argocd/guestbook',
    controller: 'StatefulSet/argocd/argocd-application-controller',
    command: 'kubectl -n argocd scale statefulset argocd-application-controller --replicas=1',
    // Argo CD's install is not in this repository: no file to propose.
    reported:
      '- `StatefulSet/argocd/argocd-application-controller` `spec.replicas` by `kubectl` at 14:30 UTC: created by operator Argo CD, not declared in Git: emergency switch (`kubectl scale … --replicas=0`): argocd-application-controller runs no pod: Argo CD applies nothing in this cluster while it is at 0 replicas',
  },
};

/** Steps 8–11 on one cluster: the stand-in's commits for the fixture's, and what the App wrote before. */
interface Walk {
  app: AppHarness;
  c: AutoscalingCase;
  /** The fixture's commit ids → the stand-in's. */
  shas: Record<string, string>;
  /** How many pull requests driftback had opened before step 8. */
  ourPulls: number;
}

/** Uploads the case's snapshot `name` (`5-hpa-and-git-replicas`) with its commits read as the stand-in's. */
const snapshotOf = (w: Walk, name: string, rewrite: Record<string, string> = {}) =>
  upload(w.app, `${w.c.prefix}-${name}` as EmergencySnapshotName, { ...w.shas, ...rewrite });
const openAlertsOf = (w: Walk) => alerts(w.app, w.c.cluster).filter((a) => a.state === 'open');

/**
 * Steps 8–11 of the exercise, from the verified fix merged as `merged` (the fixture's snapshots, with its
 * commits read as the stand-in's): an HPA and Git both setting replicas (warned on the PR and on the
 * dashboard), replicas removed (quiet), the controller stopped while Git moves (one not-reconciling alert
 * after the threshold), restarted (the alert closed, the dashboard says so).
 */
async function autoscalingAndStoppedController(app: AppHarness, c: AutoscalingCase, merged: string): Promise<void> {
  const walk: Walk = { app, c, shas: { [c.fixture.merge]: merged }, ourPulls: driftbackPulls(app).length };
  await autoscalingSteps(walk);
  await stoppedControllerSteps(walk);
}

/** 8: an HPA added while Git declares replicas (warned); 9: replicas removed (quiet). */
async function autoscalingSteps(w: Walk): Promise<void> {
  const { app, c, shas, ourPulls } = w;
  const openAlerts = () => openAlertsOf(w);
  const snapshot = (name: string) => snapshotOf(w, name);

  // 8. A PR adds an HPA whose target's manifest declares replicas: the plan warns, with the fix.
  const autoscale = await openPullRequest(
    app,
    'autoscale',
    c.autoscale((path) => fileAtHead(app, path)),
    {
      title: 'Autoscale',
      message: 'Autoscale\n',
    },
  );
  const [plan, ...morePlans] = commentsOn(app, autoscale);
  expect(morePlans).toEqual([]);
  expect(plan).toContain('HPA and Git both set replicas');
  expect(plan).toContain(`HorizontalPodAutoscaler \`${c.workload.hpa}\` set \`spec.replicas\``);
  expect(plan).toContain('manager `kube-controller-manager`');
  // Merged and applied by the controller: the dashboard says the same, with the line that declares replicas.
  shas[c.fixture.d] = await mergePullRequest(app, autoscale);
  const workload = fileAtHead(app, c.workload.path);
  await snapshot('5-hpa-and-git-replicas');
  await watchAt(app, '2026-12-02T13:01:00Z');
  const line = workload.split('\n').indexOf(c.replicasLine.trimEnd()) + 1;
  expect(line).toBe(c.workload.line);
  expect(dashboard(app)).toContain('**HPA and Git both set replicas (1)**');
  expect(dashboard(app)).toContain(
    `- \`${c.workload.key}\` (\`${c.workload.path}:${line}\`): Both this manifest and HorizontalPodAutoscaler \`${c.workload.hpa}\` set \`spec.replicas\``,
  );
  expect(statusLine(app, c.cluster)).toBe(`- **${c.cluster}**: ⚠️ no drift; 1 conflict`);
  expect([driftbackPulls(app).length, openAlerts()]).toEqual([ourPulls, []]);

  // 9. A PR removes replicas: no warning; merged and applied, the HPA alone sets them: quiet.
  const handOver = await openPullRequest(
    app,
    'hpa-owns-replicas',
    { [c.workload.path]: workload.replace(c.replicasLine, '') },
    { title: 'Let the HPA own replicas', message: 'Let the HPA own replicas\n' },
  );
  expect(commentsOn(app, handOver).join('\n')).not.toContain('HPA and Git both set replicas');
  shas[c.fixture.e] = await mergePullRequest(app, handOver);
  await snapshot('6-hpa-owns-replicas');
  await watchAt(app, '2026-12-02T14:01:00Z');
  expect(dashboard(app)).not.toContain('HPA and Git both set replicas');
  expect(dashboard(app)).not.toContain('Conflicts');
  expect(statusLine(app, c.cluster)).toBe(`- **${c.cluster}**: ✅ no drift`);
  expect([driftbackPulls(app).length, openAlerts()]).toEqual([ourPulls, []]);
}

/** 10: the controller scaled to 0 while a commit lands (one alert, no drift PR); 11: restarted (closed). */
async function stoppedControllerSteps(w: Walk): Promise<void> {
  const { app, c, shas, ourPulls } = w;
  const openAlerts = () => openAlertsOf(w);
  const snapshot = (name: string, rewrite: Record<string, string> = {}) => snapshotOf(w, name, rewrite);
  // 10. The controller scaled to 0 (14:30), then a commit lands (nothing applies it): named on the
  // dashboard at once, one alert after the threshold, with since when, the commit waiting and what to run.
  const before = shas[c.fixture.e]!;
  const waiting = app.standIn.pushCommit({
    owner: app.owner,
    repo: app.repo,
    branch: 'main',
    files: { [c.workload.path]: `# Replicas belong to the HPA.\n${fileAtHead(app, c.workload.path)}` },
    message: 'Say who owns replicas',
  });
  expect(await sendWebhook(app, 'push', pushPayload(app, 'main', waiting, before))).toBe(200);
  await drain(app);
  shas[c.fixture.f] = waiting;
  const stoppedReason = `its controller ${c.stopped.controller} has no ready replica`;
  await snapshot('7-controller-stopped');
  await watchAt(app, '2026-12-02T15:01:00Z');
  expect(dashboard(app)).toContain(stoppedReason);
  expect(all(app).filter((issue) => issue.title === c.stopped.title)).toEqual([]);
  await snapshot('7-controller-stopped', { '2026-12-02T15:00:00Z': '2026-12-02T15:40:00Z' });
  await watchAt(app, '2026-12-02T15:41:00Z');
  const [stopped, ...moreStopped] = all(app).filter((issue) => issue.title === c.stopped.title);
  expect(moreStopped).toEqual([]);
  expect(stopped!.body).toContain(stoppedReason);
  expect(stopped!.body).toContain(`- \`${waiting.slice(0, 7)}\` Say who owns replicas`);
  expect(stopped!.body).toContain(`- \`${c.stopped.command}\``);
  expect([driftbackPulls(app).length, openAlerts().map((a) => a.title)]).toEqual([ourPulls, [c.stopped.title]]);
  expect(dashboard(app)).toContain(c.stopped.reported);

  // 11. Scaled back to 1 (15:50): it applies HEAD; the alert closes saying so, the dashboard no longer names it.
  await snapshot('8-controller-restarted');
  await watchAt(app, '2026-12-02T16:01:00Z');
  expect(
    all(app)
      .filter((issue) => issue.title === c.stopped.title)
      .map((issue) => issue.state),
  ).toEqual(['closed']);
  expect(commentsOn(app, stopped!.number)).toEqual([
    `\`${c.stopped.source}\` in \`${c.cluster}\` reconciles again (applied \`${waiting.slice(0, 7)}\`). Closing.`,
  ]);
  expect(dashboard(app)).not.toContain('no ready replica');
  expect(dashboard(app)).not.toContain('Reported, not codified');
  expect(statusLine(app, c.cluster)).toBe(`- **${c.cluster}**: ✅ no drift`);
  expect([driftbackPulls(app).length, openAlerts()]).toEqual([ourPulls, []]);
}

describe('the exercise on a Flux cluster: flux suspend kustomization apps, kubectl edit', () => {
  it('walks suspend → emergency PR → still suspended → merge + resume → verified → undone → restored', async () => {
    const app = await start();
    const alertStates = () => alerts(app, 'kind-dev').map((issue) => [issue.title, issue.state]);
    const suspendedTitle = 'driftback: kind-dev: Kustomization/flux-system/apps is still suspended';
    const undoneTitle = 'driftback: kind-dev: the emergency fix under flux-system/apps was undone';

    // 10:00 deployed and in sync: nothing written but the dashboard.
    await upload(app, 'flux-1-before');
    await watchAt(app, '2026-12-01T10:01:00Z');
    expect(pulls(app)).toEqual([]);
    expect(alerts(app, 'kind-dev')).toEqual([]);

    // 10:02 `flux suspend kustomization apps -n flux-system`, 10:05 kubectl edit (memory 512Mi → 1Gi),
    // 10:10 the first snapshot that shows it: the emergency PR at once.
    await upload(app, 'flux-2-suspended');
    const [pr, ...morePulls] = pulls(app);
    expect(morePulls).toEqual([]);
    expect([pr!.title, pr!.labels, pr!.state]).toEqual([
      'Emergency: Deployment/podinfo/podinfo memory on kind-dev',
      ['driftback', 'emergency'],
      'open',
    ]);
    const body = pr!.body!;
    expect(body).toContain('`Kustomization/flux-system/apps` was suspended at 2026-12-01 10:02 UTC by `flux`.');
    expect(body).toContain('| `Deployment/podinfo/podinfo`<br><code>spec.<wbr>template.');
    expect(body).toContain('| `1Gi` | kubectl-edit<br>2026-12-01 10:05 UTC |');
    expect(body).toContain(
      '2. Then resume it (resume within 8h: by 18:02 UTC; after that driftback opens an alert): `flux resume kustomization apps -n flux-system`',
    );
    expect(body).toContain('directly (seen in 1 snapshot).');
    expect(ticked(body)).toEqual([]);
    await watchAt(app, '2026-12-01T10:11:00Z');
    expect(alerts(app, 'kind-dev')).toEqual([]);
    expect(dashboard(app)).toContain(
      `- \`Kustomization/flux-system/apps\` since 10:02 UTC, by \`flux\`, emergency PR #${pr!.number}`,
    );

    // Nobody resumed. 19:10, past the 18:02 deadline, the next snapshot and watch: one alert.
    await upload(app, 'flux-2b-still-suspended');
    await watchAt(app, '2026-12-01T19:11:00Z');
    expect(alertStates()).toEqual([[suspendedTitle, 'open']]);
    const [suspendedAlert] = alerts(app, 'kind-dev');
    expect(suspendedAlert!.labels).toEqual(['driftback', 'driftback-alert']);
    expect(suspendedAlert!.body).toContain('`flux` suspended it at 10:02 UTC.');
    expect(suspendedAlert!.body).toContain(`Its emergency pull request is #${pr!.number}: merge it, then resume.`);
    expect(suspendedAlert!.body).toContain('To resume: `flux resume kustomization apps -n flux-system`');
    // Seen in two snapshots now: the PR says it persisted, and is not otherwise touched.
    expect(pulls(app)[0]!.body).toContain('directly, and the changes persisted.');
    expect(ticked(pulls(app)[0]!.body)).toEqual([]);

    // The engineer merges the PR, then `flux resume kustomization apps -n flux-system` (19:20); Flux
    // applies the merge commit, and the 19:30 snapshot shows it.
    const mergeSha = await mergePullRequest(app, pr!.number);
    expect(ticked(pulls(app)[0]!.body)).toEqual(['merged']);
    await upload(app, 'flux-4-resumed-late', { [FIXTURE_MERGE.flux]: mergeSha });
    await watchAt(app, '2026-12-01T19:31:00Z');
    expect(ticked(pulls(app)[0]!.body)).toEqual(['merged', 'resumed', 'applied', 'in sync']);
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified:'))).toEqual([
      expect.stringContaining(`verified: cluster and Git agree at \`${mergeSha}\``),
    ]);
    expect(alertStates()).toEqual([[suspendedTitle, 'closed']]);
    expect(commentsOn(app, suspendedAlert!.number).at(-1)).toContain(
      '`flux-system/apps` in `kind-dev` reconciles again',
    );
    expect(dashboard(app)).not.toContain('Kustomization/flux-system/apps` since');
    expect(pulls(app)[0]!.body).not.toContain('(suspended)');

    // A day later a stale pipeline puts 512Mi back (written by kustomize-controller at 09:00).
    const day2 = (capturedAt: string, written = '2026-12-02T09:00:00Z') => ({
      '2026-12-01T10:50:00Z': capturedAt,
      '2026-12-01T10:45:04Z': written,
      [FIXTURE_MERGE.flux]: mergeSha,
    });
    await upload(app, 'flux-3b-resumed-without-merge', day2('2026-12-02T10:00:00Z'));
    await watchAt(app, '2026-12-02T10:01:00Z');
    expect(alertStates()).toEqual([
      [suspendedTitle, 'closed'],
      [undoneTitle, 'open'],
    ]);
    const undone = alerts(app, 'kind-dev')[1]!;
    expect(undone.body).toContain(
      '- `Deployment/podinfo/podinfo` `spec.template.spec.containers[podinfod].resources.limits.memory`: `1Gi` → `512Mi`, written by `kustomize-controller` at 2026-12-02 09:00 UTC',
    );
    // The same state an hour on: still one alert, not rewritten; no second "verified".
    await upload(app, 'flux-3b-resumed-without-merge', day2('2026-12-02T11:00:00Z'));
    await watchAt(app, '2026-12-02T11:01:00Z');
    expect(alerts(app, 'kind-dev').map((issue) => [issue.state, issue.body])).toEqual([
      ['closed', suspendedAlert!.body],
      ['open', undone.body],
    ]);
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified:'))).toHaveLength(1);

    // The merged value is back: the alert closes, saying so. Nothing else opens.
    await upload(app, 'flux-3-resumed-after-merge', {
      '2026-12-01T10:50:00Z': '2026-12-02T12:00:00Z',
      [FIXTURE_MERGE.flux]: mergeSha,
    });
    await watchAt(app, '2026-12-02T12:01:00Z');
    expect(alertStates()).toEqual([
      [suspendedTitle, 'closed'],
      [undoneTitle, 'closed'],
    ]);
    expect(commentsOn(app, undone.number)).toEqual([
      `The fix of #${pr!.number} under \`flux-system/apps\` in \`kind-dev\` is back in the cluster. Closing.`,
    ]);
    expect(pulls(app)).toHaveLength(1);

    await autoscalingAndStoppedController(app, FLUX_CASE, mergeSha);
  });
});

describe('the exercise on an Argo CD cluster: automated sync off, kubectl scale', () => {
  it('walks suspend → emergency PR → still suspended → merge + resume → verified → undone → restored', async () => {
    const app = await start();
    const alertStates = () => alerts(app, 'kind-argo').map((issue) => [issue.title, issue.state]);
    const suspendedTitle = 'driftback: kind-argo: Application/argocd/guestbook is still suspended';
    const undoneTitle = 'driftback: kind-argo: the emergency fix under argocd/guestbook was undone';

    await upload(app, 'argo-1-before');
    // 11:02 automated sync turned off (`argocd app set guestbook --sync-policy none`), 11:05
    // `kubectl scale deployment frontend --replicas=5`, 11:10 the snapshot: the emergency PR.
    await upload(app, 'argo-2-autosync-off');
    const [pr, ...morePulls] = pulls(app);
    expect(morePulls).toEqual([]);
    expect([pr!.title, pr!.labels]).toEqual([
      'Emergency: Deployment/guestbook/frontend replicas on kind-argo',
      ['driftback', 'emergency'],
    ]);
    // Removing `automated` records no writer: the first snapshot that showed it dates it.
    expect(pr!.body).toContain(
      '`Application/argocd/guestbook` was suspended no later than 2026-12-01 11:10 UTC (first seen then; nothing records who turned it off).',
    );
    expect(pr!.body).toContain(
      '| `Deployment/guestbook/frontend`<br>`spec.replicas` | `5` | kubectl<br>2026-12-01 11:05 UTC |',
    );
    expect(pr!.body).toContain(
      're-enable automated sync (resume within 8h: by 19:10 UTC; after that driftback opens an alert): `argocd app set guestbook --sync-policy automated`',
    );

    // Still off at 19:20: the same state, past the deadline, opens the alert.
    await upload(app, 'argo-2-autosync-off', { '2026-12-01T11:10:00Z': '2026-12-01T19:20:00Z' });
    await watchAt(app, '2026-12-01T19:21:00Z');
    expect(alertStates()).toEqual([[suspendedTitle, 'open']]);
    const [suspendedAlert] = alerts(app, 'kind-argo');
    expect(suspendedAlert!.body).toContain('To resume: `argocd app set guestbook --sync-policy automated`');

    // Merged, automated sync on again: Argo CD syncs the merge commit.
    const mergeSha = await mergePullRequest(app, pr!.number);
    await upload(app, 'argo-3-autosync-on-after-merge', {
      [FIXTURE_MERGE.argo]: mergeSha,
      '2026-12-01T11:50:00Z': '2026-12-01T19:50:00Z',
    });
    await watchAt(app, '2026-12-01T19:51:00Z');
    expect(ticked(pulls(app)[0]!.body)).toEqual(['merged', 'resumed', 'applied', 'in sync']);
    expect(commentsOn(app, pr!.number).filter((c) => c.startsWith('verified:'))).toEqual([
      expect.stringContaining(`verified: cluster and Git agree at \`${mergeSha}\``),
    ]);
    expect(alertStates()).toEqual([[suspendedTitle, 'closed']]);

    // The next day replicas are 3 again (a rollback applied by argocd-controller): the fix undone.
    await upload(app, 'argo-3b-autosync-on-without-merge', { '2026-12-01T11:50:00Z': '2026-12-02T10:00:00Z' });
    await watchAt(app, '2026-12-02T10:01:00Z');
    expect(alertStates()).toEqual([
      [suspendedTitle, 'closed'],
      [undoneTitle, 'open'],
    ]);
    const undone = alerts(app, 'kind-argo')[1]!;
    expect(undone.body).toContain('- `Deployment/guestbook/frontend` `spec.replicas`: `5` → `3`');

    // Back at 5: closed.
    await upload(app, 'argo-3-autosync-on-after-merge', {
      [FIXTURE_MERGE.argo]: mergeSha,
      '2026-12-01T11:50:00Z': '2026-12-02T12:00:00Z',
    });
    await watchAt(app, '2026-12-02T12:01:00Z');
    expect(alertStates()).toEqual([
      [suspendedTitle, 'closed'],
      [undoneTitle, 'closed'],
    ]);
    expect(commentsOn(app, undone.number)).toEqual([
      `The fix of #${pr!.number} under \`argocd/guestbook\` in \`kind-argo\` is back in the cluster. Closing.`,
    ]);
    expect(pulls(app)).toHaveLength(1);

    await autoscalingAndStoppedController(app, ARGO_CASE, mergeSha);
  });
});
