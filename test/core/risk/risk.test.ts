// Security-relevant drift on objects as the API server writes them: the `tampering` controller scenario
// (test/fixtures/controllers/tampering, built by the fixture cluster model: managedFields of Flux's
// apply, kubectl's Updates, a raw client's PATCH named by its User-Agent) through the one drift
// pipeline. Each code is found where it is, the ordinary hand changes carry none, risky drift is held
// back from codify and from the persistence gate, and the config decides what is checked and allowed.
import { describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../../src/core/config/index.js';
import { fingerprintChange } from '../../../src/core/classify/index.js';
import {
  codifyEvaluated,
  evaluateDrift,
  type DriftInput,
  type EvaluatedDrift,
} from '../../../src/core/pipeline/index.js';
import { displayKey, isUndoneNext, type DiffResult } from '../../../src/core/model/index.js';
import { scenarioRepository, scenarioSnapshot } from '../../support/controllers.js';

const files = scenarioRepository('tampering');

function configWith(drift = ''): Config {
  const text = files.get('.github/driftback.yml')! + (drift ? `drift:\n${drift}` : '');
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

function inputOf(snapshot: string, drift = '', extra: Partial<DriftInput> = {}): DriftInput {
  const config = configWith(drift);
  const live = scenarioSnapshot('tampering', snapshot);
  return {
    snapshot: live,
    config,
    cluster: config.clusters![0]!,
    files,
    history: [],
    minSnapshots: 1,
    declined: new Set(),
    ...extra,
  };
}

function evaluate(input: DriftInput): EvaluatedDrift {
  const evaluation = evaluateDrift(input);
  if (evaluation.type !== 'evaluated') throw new Error(JSON.stringify(evaluation));
  return evaluation;
}

/** Every risk of a diff as `Kind/ns/name path: code`. */
function risksOf(result: DiffResult): string[] {
  const out: string[] = [];
  for (const resource of result.resources) {
    for (const risk of resource.risk ?? []) out.push(`${displayKey(resource.key)}: ${risk.code}`);
    for (const change of resource.changes)
      for (const risk of change.risk ?? []) out.push(`${displayKey(resource.key)} ${change.path}: ${risk.code}`);
  }
  for (const object of result.owned ?? [])
    for (const risk of object.risk ?? []) out.push(`${displayKey(object.key)}: ${risk.code}`);
  return out.sort();
}

describe('tampering: each code where the tampering is', () => {
  const evaluated = evaluate(inputOf('tampering'));

  it('finds exactly these risks', () => {
    expect(risksOf(evaluated.diff)).toEqual(
      [
        // kubectl patch role web-config: a rule with every verb on secrets
        'Role/shop/web-config /rules: rbac-escalation',
        // kubectl create rolebinding everyone-admin --clusterrole=admin --group=system:authenticated
        'RoleBinding/shop/everyone-admin: rbac-escalation',
        // curl PATCH of the worker's image: a registry Git never uses, by a manager nobody knows
        'Deployment/shop/worker /spec/template/spec/containers/0/image: image-registry',
        'Deployment/shop/worker /spec/template/spec/containers/0/image: unknown-manager',
        // kubectl patch deploy/web: privileged, SYS_ADMIN, the node's network and docker socket
        'Deployment/shop/web /spec/template/spec/containers/0/securityContext/capabilities/add: privilege',
        'Deployment/shop/web /spec/template/spec/containers/0/securityContext/privileged: privilege',
        'Deployment/shop/web /spec/template/spec/hostNetwork: privilege',
        'Deployment/shop/web /spec/template/spec/volumes/0: privilege',
        // … and the mount of that volume, written in the same patch
        'Deployment/shop/web /spec/template/spec/containers/0/volumeMounts/0: privilege',
        // kubectl edit cronjob/report: runAsNonRoot false where Git says true
        'CronJob/shop/report /spec/jobTemplate/spec/template/spec/securityContext/runAsNonRoot: privilege',
        'CronJob/shop/report /spec/jobTemplate/spec/template/spec/securityContext/runAsUser: privilege',
        // kubectl run node-shell --privileged
        'Pod/shop/node-shell: privilege',
        // kubectl create clusterrolebinding shop-default-admin --clusterrole=cluster-admin
        // --serviceaccount=shop:default: cluster-scoped, so judged under the snapshot's namespace scope
        'ClusterRoleBinding/shop-default-admin: rbac-escalation',
      ].sort(),
    );
  });

  it('says why, naming the field, the value and the subject', () => {
    const why = (name: string, path?: string): string[] => {
      const resource = evaluated.diff.resources.find((r) => r.key.name === name)!;
      const risk = path ? resource.changes.find((c) => c.path === path)!.risk : resource.risk;
      return (risk ?? []).map((entry) => entry.why);
    };
    expect(why('worker', '/spec/template/spec/containers/0/image')).toEqual([
      "containers[worker].image comes from registry.evil.example:5000, a registry the repository's manifests never use (it uses docker.io, ghcr.io): the cluster runs code from a source nobody reviewed here",
      "changed by curl, a field manager that is neither a person's tool, a known controller, nor configured: a client nobody here knows (a script, an undeclared operator, someone else's credentials); once known, name it in drift.humanManagers or drift.appliers",
    ]);
    expect(why('everyone-admin')).toEqual([
      'grants ClusterRole admin (full control of a namespace, its RoleBindings included) in namespace shop to Group system:authenticated (every signed-in user and ServiceAccount)',
    ]);
    expect(why('web-config', '/rules')).toEqual([
      'Role web-config allows every verb on secrets to every subject bound to it',
    ]);
    expect(why('report', '/spec/jobTemplate/spec/template/spec/securityContext/runAsNonRoot')).toEqual([
      "containers[report] may run as root, though Git requires runAsNonRoot: true: whatever runs there may have root's rights",
    ]);
  });

  it('the mount of the hostPath volume, patched in with it, waits with it', () => {
    const web = evaluated.diff.resources.find((r) => r.key.kind === 'Deployment' && r.key.name === 'web')!;
    const mount = web.changes.find((c) => c.path.endsWith('/volumeMounts/0'))!;
    expect(mount.risk).toEqual([
      {
        code: 'privilege',
        why: "written by kubectl-patch in the same write as spec.template.spec.containers[web].securityContext.capabilities.add (containers[web].securityContext.capabilities.add has SYS_ADMIN, beyond the Pod Security Standards' baseline: a power over the node's kernel that ordinary workloads never need): held for the same decision, so that Git never gets half of that write",
      },
    ]);
  });

  it('a ClusterRoleBinding to cluster-admin made by hand, where cluster-scoped objects are compared', () => {
    // Objects read from files say nothing of their scope: every object is compared, cluster-scoped ones too.
    const input = inputOf('tampering');
    const plain = evaluate({ ...input, snapshot: { items: input.snapshot.items } });
    const binding = plain.diff.resources.find((r) => r.key.name === 'shop-default-admin')!;
    expect(binding.status).toBe('extra');
    expect(binding.risk).toEqual([
      {
        code: 'rbac-escalation',
        why: 'grants ClusterRole cluster-admin (full control of every resource) in every namespace to ServiceAccount shop/default',
      },
    ]);
  });

  it('nothing risky is codified; it is reported as needing a decision', () => {
    const codify = codifyEvaluated(inputOf('tampering'), evaluated);
    expect(codify.codified).toEqual([]);
    const held = codify.reported.filter((entry) => entry.risk);
    expect(held.map((entry) => `${displayKey(entry.key)} ${entry.change?.path ?? ''}`).sort()).toEqual([
      'ClusterRoleBinding/shop-default-admin ',
      'CronJob/shop/report /spec/jobTemplate/spec/template/spec/securityContext/runAsNonRoot',
      'CronJob/shop/report /spec/jobTemplate/spec/template/spec/securityContext/runAsUser',
      'Deployment/shop/web /spec/template/spec/containers/0/securityContext/capabilities/add',
      'Deployment/shop/web /spec/template/spec/containers/0/securityContext/privileged',
      'Deployment/shop/web /spec/template/spec/containers/0/volumeMounts/0',
      'Deployment/shop/web /spec/template/spec/hostNetwork',
      'Deployment/shop/web /spec/template/spec/volumes/0',
      'Deployment/shop/worker /spec/template/spec/containers/0/image',
      'Pod/shop/node-shell ',
      'Role/shop/web-config /rules',
      'RoleBinding/shop/everyone-admin ',
    ]);
    expect(held.find((entry) => entry.key.name === 'everyone-admin')!.reason).toMatch(/drift\.allowRisky/);
  });

  it('whatever drift.causes says', () => {
    const input = inputOf('tampering', '  causes: [human, controller, unknown]\n');
    const codify = codifyEvaluated(input, evaluate(input));
    expect(codify.codified).toEqual([]);
  });
});

describe('tampering: no false alarms on what people do every day', () => {
  const input = inputOf('ordinary');
  const evaluated = evaluate(input);

  it('scale, set env, set resources, rollout restart, set image within the repository registries: no code', () => {
    expect(risksOf(evaluated.diff)).toEqual([]);
    const changes = evaluated.diff.resources.flatMap((r) => r.changes.map((c) => `${displayKey(r.key)} ${c.path}`));
    expect(changes).toEqual(
      expect.arrayContaining([
        'Deployment/shop/worker /spec/replicas',
        'Deployment/shop/web /spec/template/spec/containers/0/env/0/value',
        'Deployment/shop/worker /spec/template/spec/containers/0/resources/limits/memory',
        'Deployment/shop/web /spec/template/spec/containers/0/image',
        // nginx:1.27 in Git, docker.io/library/nginx:1.27.3 live: the same registry
        'Deployment/shop/proxy /spec/template/spec/containers/0/image',
        'CronJob/shop/report /spec/jobTemplate/spec/template/spec/containers/0/image',
      ]),
    );
  });

  it("a policy webhook's hardening (owned by no manager) is not drift at all", () => {
    const paths = evaluated.diff.resources.flatMap((r) => r.changes.map((c) => c.path));
    expect(paths.filter((path) => /securityContext/.test(path))).toEqual([]);
  });

  it('is codified as before', () => {
    const codify = codifyEvaluated(input, evaluated);
    expect(codify.check).toEqual({ ok: true });
    expect(codify.reported.filter((entry) => entry.risk)).toEqual([]);
    expect(codify.codified.map((c) => `${displayKey(c.key)} ${c.change?.path}`)).toEqual(
      expect.arrayContaining(['Deployment/shop/proxy /spec/template/spec/containers/0/image']),
    );
  });
});

describe('the config decides what is checked and what may be codified', () => {
  it('drift.risks: a code left out is not checked', () => {
    const evaluated = evaluate(inputOf('tampering', '  risks: [rbac-escalation]\n'));
    expect(new Set(risksOf(evaluated.diff).map((line) => line.split(': ')[1]))).toEqual(new Set(['rbac-escalation']));
  });

  it('drift.trustedRegistries: a trusted host (a glob, port included) is no image-registry risk', () => {
    const evaluated = evaluate(inputOf('tampering', '  trustedRegistries: ["*.evil.example:5000"]\n'));
    const worker = risksOf(evaluated.diff).filter((line) => line.includes('worker'));
    expect(worker).toEqual(['Deployment/shop/worker /spec/template/spec/containers/0/image: unknown-manager']);
  });

  it('drift.allowRisky: an allowed change carries its reason and is codified as drift.causes says', () => {
    const allow = [
      '  allowRisky:',
      '    - code: privilege',
      '      kinds: [CronJob]',
      '      names: [report]',
      '      paths: [/spec/jobTemplate/spec/template/spec/securityContext]',
      '      reason: the nightly report needs root until 0.10',
      '',
    ].join('\n');
    const input = inputOf('tampering', allow);
    const evaluated = evaluate(input);
    const report = evaluated.diff.resources.find((r) => r.key.name === 'report')!;
    expect(report.changes.map((c) => c.risk)).toEqual([
      [
        expect.objectContaining({
          code: 'privilege',
          allowed: 'drift.allowRisky: the nightly report needs root until 0.10',
        }),
      ],
      [
        expect.objectContaining({
          code: 'privilege',
          allowed: 'drift.allowRisky: the nightly report needs root until 0.10',
        }),
      ],
    ]);
    const codified = codifyEvaluated(input, evaluated).codified.map((c) => `${c.key.name} ${c.change?.path}`);
    expect(codified).toEqual(
      expect.arrayContaining([
        'report /spec/jobTemplate/spec/template/spec/securityContext/runAsNonRoot',
        'report /spec/jobTemplate/spec/template/spec/securityContext/runAsUser',
      ]),
    );
  });

  it('an allowRisky entry allows its code only: the unknown manager still waits', () => {
    const allow =
      '  causes: [human, unknown]\n  allowRisky:\n    - code: image-registry\n      names: [worker]\n      reason: the vendor registry\n';
    const input = inputOf('tampering', allow);
    const codified = codifyEvaluated(input, evaluate(input)).codified.map((c) => c.key.name);
    expect(codified).not.toContain('worker');
  });

  it('an allowRisky path may name the container by its key, as driftback prints the field', () => {
    const allowed = (path: string) => {
      const allow = `  allowRisky:\n    - code: image-registry\n      paths: ["${path}"]\n      reason: the vendor registry\n`;
      const worker = evaluate(inputOf('tampering', allow)).diff.resources.find((r) => r.key.name === 'worker')!;
      const image = worker.changes.find((c) => c.path.endsWith('/image'))!;
      return image.risk!.find((risk) => risk.code === 'image-registry')!.allowed;
    };
    expect(allowed('spec.template.spec.containers[worker].image')).toBe('drift.allowRisky: the vendor registry');
    expect(allowed('spec.template.spec.containers[worker]')).toBe('drift.allowRisky: the vendor registry');
    expect(allowed('spec.template.spec.containers[migrate].image')).toBeUndefined();
    expect(allowed('spec.template.spec.initContainers[worker].image')).toBeUndefined();
  });

  it("a person's decision on one item (by its fingerprint) lets it be codified", () => {
    const first = evaluate(inputOf('tampering'));
    const binding = first.diff.resources.find((r) => r.key.name === 'everyone-admin')!;
    const whole = {
      path: '',
      segments: [],
      op: 'add' as const,
      cause: 'human' as const,
      live: `extra:${binding.live!.metadata!.uid}`,
    };
    const decisions = new Map([
      [fingerprintChange(binding.key, whole), { reason: 'break-glass for the incident', by: 'alice' }],
    ]);
    const input = inputOf('tampering', '', { riskDecisions: decisions });
    const evaluated = evaluate(input);
    const decided = evaluated.diff.resources.find((r) => r.key.name === 'everyone-admin')!;
    expect(decided.risk?.[0]?.allowed).toBe('decided by alice: break-glass for the incident');
    const codified = codifyEvaluated(input, evaluated).codified.map((c) => `${c.key.kind}/${c.key.name} ${c.kind}`);
    expect(codified).toContain('RoleBinding/everyone-admin new-file');
  });
});

describe('the persistence gate', () => {
  it('risky drift counts at first sight; ordinary drift waits for drift.minSnapshots unless its controller undoes it', () => {
    const risky = evaluate(inputOf('tampering', '', { minSnapshots: 2 }));
    expect(risksOf(risky.drift)).toEqual(risksOf(risky.diff));
    expect(risksOf(risky.drift)).toHaveLength(13);
    const ordinary = evaluate(inputOf('ordinary', '', { minSnapshots: 2 }));
    const seen = ordinary.diff.resources.flatMap((r) => r.changes);
    // On this Flux cluster every ordinary hand change is one kustomize-controller takes back at its next
    // reconcile: each is shown at once, with the remedy (the gate itself: test/core/classify).
    const undone = seen.filter((change) => isUndoneNext(change.next));
    const shown = ordinary.drift.resources.flatMap((r) => r.changes);
    expect(shown.map((change) => change.path)).toEqual(undone.map((change) => change.path));
    expect(shown.every((change) => change.next?.suspend)).toBe(true);
    expect(ordinary.pending).toBe(seen.length - undone.length);
  });
});
