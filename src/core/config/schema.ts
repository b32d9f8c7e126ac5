// `.github/driftback.yml`: the raw schema mirrors the file; unknown keys are rejected and
// defaults are filled here once. Each field's comment ends in its default.
import { z } from 'zod';
import { RISK_CODES } from '../model/drift.js';
import { compileConfigGlobs } from '../patterns/index.js';
import { FIELD_PATH_EXAMPLE, parseFieldPath } from '../k8s/field-path-text.js';

const DURATION = /^(\d+)(s|m|h|d)$/;

/** Parses `30s`, `30m`, `2h`, `1d` into seconds; undefined when it is not such a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

const duration = z
  .string({ error: 'expected a duration like 30m' })
  .refine((text) => parseDuration(text) !== undefined, { message: 'expected a duration like 30m' });

const nameList = z.array(z.string().min(1, 'expected a non-empty string'));

/** Names or globs (`team-*`, `{a,b}`): compiled as RE2 here, so a glob that cannot be is reported with its path. */
const globList = nameList.superRefine((globs, ctx) => {
  globs.forEach((glob, index) => {
    const problem = compileConfigGlobs([glob]).problems[0];
    if (problem) ctx.addIssue({ code: 'custom', path: [index], message: problem });
  });
});

export const clusterSchema = z
  .strictObject({
    /** Matches the snapshot's `cluster`. Required. */
    name: z
      .string({ error: 'expected the cluster name, as the agent reports it' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'expected letters, digits, ".", "_" or "-"'),
    /**
     * Directory of plain manifests or a kustomization root, relative to the repository: the objects
     * applied to the cluster, Flux Kustomizations and Argo CD Applications among them, which are followed
     * to every path they apply. Default: none, when the snapshot's Kustomizations or Applications name the
     * paths; required with `controller: kubectl`.
     */
    path: z
      .string({ error: 'expected a directory path relative to the repository root' })
      .min(1)
      .refine((p) => !p.split('/').includes('..') && !p.startsWith('/'), {
        message: 'must stay inside the repository (no "..", no leading "/")',
      })
      .optional(),
    /**
     * What applies the repository to the cluster: `flux` (Kustomizations), `argocd` (Applications) or
     * `kubectl` (the path, as it is, from CI). Default: detected from the controller objects in the
     * repository and the snapshot (Flux, then Argo CD, else kubectl).
     */
    controller: z.enum(['flux', 'argocd', 'kubectl'], { error: 'expected flux, argocd or kubectl' }).optional(),
    /** Namespaces in scope; default: every namespace the snapshot holds. */
    namespaces: nameList.optional(),
    /** Namespace for namespaced manifests that name none. Default: `default`. */
    defaultNamespace: z.string().min(1).default('default'),
    /** Whether the plan shows prunes as the controller would do them. Default: true. */
    prune: z.boolean({ error: 'expected true or false' }).default(true),
    /** No snapshot for this long means the agent or controller is not reporting. Default: 30m. */
    staleAfter: duration.default('30m'),
  })
  .superRefine((cluster, ctx) => {
    if (cluster.path === undefined && cluster.controller === 'kubectl') {
      const message = 'with controller: kubectl, give the directory CI applies (path: …)';
      ctx.addIssue({ code: 'custom', path: ['path'], message });
    }
  });

/** A rule's field: a JSON pointer, or a field path as driftback prints it (read by `parseFieldPath`). */
const rulePath = z.string().superRefine((path, ctx) => {
  if (path.startsWith('/')) return;
  const parsed = path === '' ? 'it is empty' : parseFieldPath(path);
  if (typeof parsed !== 'string') return;
  ctx.addIssue({
    code: 'custom',
    message: `\`${path}\` is not a field: ${parsed}. Write the field as driftback prints it (${FIELD_PATH_EXAMPLE}) or a JSON pointer (/spec/replicas)`,
  });
});

export const ignoreRuleSchema = z.strictObject({
  /** Kinds the rule applies to; default: every kind. */
  kinds: globList.optional(),
  /** API groups; default: every group. */
  groups: z.array(z.string()).optional(),
  /** Name globs; default: every name. */
  names: globList.optional(),
  /** Namespace globs; default: every namespace. */
  namespaces: globList.optional(),
  /**
   * Fields as driftback prints them (`spec.template.spec.containers[app].image`: list items by their
   * key) or JSON pointers (`/spec/replicas`); `*` (`[*]`) names any key or item, and a path covers
   * everything below it. Default: every path (then `managers` must narrow it).
   */
  paths: z.array(rulePath).optional(),
  /** Field managers whose fields are ignored; default: any manager. */
  managers: globList.optional(),
  /** Why: shown next to every ignored count. Required. */
  reason: z
    .string({ error: 'every ignore rule says why (reason: …)' })
    .min(1, 'every ignore rule says why (reason: …)'),
});

const riskCode = z.enum(RISK_CODES, { error: `expected one of ${RISK_CODES.join(', ')}` });

/** Risky drift a person decided to codify: where, which code, and why. */
export const allowRiskySchema = ignoreRuleSchema.extend({
  /** The risk code this entry allows. Required. */
  code: riskCode,
  /** Why this is not tampering: shown next to the change in every report. Required. */
  reason: z
    .string({ error: 'every allowRisky entry says why (reason: …)' })
    .min(1, 'every allowRisky entry says why (reason: …)'),
});

export const driftSchema = z.strictObject({
  /** Persistence gate: consecutive snapshots a change must be seen in. Default: 2. */
  minSnapshots: z.number().int().min(1).max(100).default(2),
  /** What a drift PR writes. Default: [modified, added, extra]. `missing` is never deleted. */
  codify: z
    .array(
      z.enum(['modified', 'added', 'extra'], {
        error: 'expected modified, added or extra ("missing" is reported, never deleted)',
      }),
    )
    .default(['modified', 'added', 'extra']),
  /** Causes that are codified; the rest are reported. Default: [human]. */
  causes: z.array(z.enum(['human', 'controller', 'unknown'])).default(['human']),
  /** `report` a conflict, or `remove-field` (drop the controller-owned field from Git). Default: report. */
  resolveConflicts: z.enum(['report', 'remove-field']).default('report'),
  /** Extra manager names or globs treated as human. Default: []. */
  humanManagers: globList.default([]),
  /** Extra managers that apply Git. Default: [] (kustomize-controller, argocd-controller, helm-controller are built in). */
  appliers: globList.default([]),
  /** Ignore rules, like Argo CD ignoreDifferences. Default: []. */
  ignore: z.array(ignoreRuleSchema).default([]),
  /** The security-relevant drift checked for; a code left out is not checked. Default: all four. */
  risks: z.array(riskCode).default([...RISK_CODES]),
  /**
   * Registry hosts (or globs: `*.dkr.ecr.eu-west-1.amazonaws.com`) images may come from besides those
   * the cluster's manifests use. Default: [].
   */
  trustedRegistries: globList.default([]),
  /** Risky drift that may be codified, each entry with its reason. Default: [] (risky drift is never codified). */
  allowRisky: z.array(allowRiskySchema).default([]),
});

export const planSchema = z.strictObject({
  /** Kinds whose prune is data loss. Default: [PersistentVolumeClaim, CustomResourceDefinition, Namespace]. */
  protect: nameList.default(['PersistentVolumeClaim', 'CustomResourceDefinition', 'Namespace']),
  /** The plan check run's conclusion when a prune deletes data. Default: action_required. */
  dataLossConclusion: z.enum(['action_required', 'neutral', 'failure']).default('action_required'),
});

export const pullRequestsSchema = z.strictObject({
  /** One PR per cluster, or per namespace. Default: cluster. */
  groupBy: z.enum(['cluster', 'namespace']).default('cluster'),
  /** Labels on drift PRs. Default: [driftback]. */
  labels: z.array(z.string()).default(['driftback']),
  /** Branches the App writes; it writes no other. Default: driftback/. */
  branchPrefix: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9._\-/]+\/$/, 'expected a branch prefix ending in "/", e.g. driftback/')
    .default('driftback/'),
  /** Where hand-made resources are written. Placeholders: {cluster_path} {cluster} {namespace} {kind} {name}. */
  newResourcePath: z
    .string()
    .regex(
      /^\{cluster_path\}\//,
      "must start with {cluster_path}/: driftback creates files only under the cluster's path",
    )
    .default('{cluster_path}/{namespace}/{kind}-{name}.yaml'),
});

export const emergencySchema = z.strictObject({
  /**
   * A suspended source (Flux `spec.suspend`, Argo CD automated sync off) must be resumed within this
   * long, or it is an alert: the safety net is off until then. Default: 8h.
   */
  resumeWithin: duration.default('8h'),
  /**
   * How long a verified emergency fix is still followed: a live value that moves away from the merged
   * value in that window opens one "fix undone" alert. Default: 7d.
   */
  followFor: duration.default('7d'),
});

export const configSchema = z.strictObject({
  /** Clusters this repository deploys to. Needed by the App and by the CLI's --cluster. */
  clusters: z
    .array(clusterSchema)
    .optional()
    .superRefine((clusters, ctx) => {
      const seen = new Set<string>();
      clusters?.forEach((cluster, i) => {
        if (seen.has(cluster.name))
          ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `cluster "${cluster.name}" is listed twice` });
        seen.add(cluster.name);
      });
    }),
  drift: driftSchema.default(driftSchema.parse({})),
  plan: planSchema.default(planSchema.parse({})),
  pullRequests: pullRequestsSchema.default(pullRequestsSchema.parse({})),
  emergency: emergencySchema.default(emergencySchema.parse({})),
});

export type Config = z.output<typeof configSchema>;
export type ClusterConfig = z.output<typeof clusterSchema>;
export type IgnoreRule = z.output<typeof ignoreRuleSchema>;
export type DriftConfig = z.output<typeof driftSchema>;
