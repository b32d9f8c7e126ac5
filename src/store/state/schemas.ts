// What the App keeps between jobs, as schemas: every stored state is parsed with these on read (and
// checked on write), so a field the code relies on is there with its type, or the read fails with
// the path of what is wrong. Unknown keys are dropped on read.
//
// To add a field: add it to the schema below (optional, so rows written before it parse), and the
// TypeScript type follows. A field that is only added needs no new version. Changing a field's
// shape, renaming or removing one that rows hold: bump STATE_VERSION in versions.ts and add the
// step that turns the previous shape into the new one there (with a test in the store contract).
import { z } from 'zod';
import { RISK_CODES } from '../../core/model/index.js';

/** `ResourceKey` of core/model: the identity of an object (the version is not part of it). */
export const resourceKeySchema = z.object({
  group: z.string(),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
});

const sourceProblemSchema = z.object({
  file: z.string(),
  line: z.number().optional(),
  column: z.number().optional(),
  field: z.string().optional(),
  message: z.string(),
});

const pathSegmentSchema = z.union([
  z.string(),
  z.object({ key: z.record(z.string(), z.union([z.string(), z.number()])) }),
  z.object({ index: z.number() }),
]);

/** One drift branch (one per cluster, or per namespace with `groupBy: namespace`). */
export const branchStateSchema = z.object({
  branch: z.string(),
  pullRequest: z.number().optional(),
  /** Fingerprints the open PR codifies: stored as decisions when it is closed unmerged. */
  fingerprints: z.array(z.string()),
  /** The last commit (and its tree) the App wrote on the branch. */
  lastWritten: z.object({ commitSha: z.string(), treeSha: z.string() }).optional(),
  /** Every commit the App wrote on the branch: anything else on it is someone's work. */
  appCommits: z.array(z.string()),
  /** Someone else committed on the branch: the App no longer writes it. */
  foreign: z.object({ commits: z.array(z.string()), since: z.string() }).optional(),
  /**
   * The open drift PR as the App last read or left it: head, title, body hash, labels, and when it was
   * last read from GitHub. A reconcile that changes nothing trusts it (no PR read) for an hour,
   * unless a webhook about the branch or its PR arrived since (RepositoryState.branchEvents).
   */
  pullRequestSeen: z
    .object({
      headSha: z.string(),
      title: z.string(),
      bodyHash: z.string(),
      labels: z.array(z.string()),
      verifiedAt: z.string(),
    })
    .optional(),
});

/** A source told to stop reconciling (core/emergency `Suspension`). */
export const suspensionSchema = z.object({
  id: z.string(),
  kind: z.enum(['flux-kustomization', 'flux-helmrelease', 'argocd-application', 'object']),
  object: z.object({ apiVersion: z.string(), kind: z.string(), namespace: z.string(), name: z.string() }),
  method: z.enum(['suspend', 'automated-sync-off', 'skip-reconcile', 'reconcile-disabled']),
  who: z.string().optional(),
  since: z.string().optional(),
  path: z.string().optional(),
  appliedRevision: z.string().optional(),
});

/** A suspension as the last reconcile saw it (dashboard, /metrics, the deadline alert). */
export const suspensionStateSchema = z.object({
  suspension: suspensionSchema,
  /** When it was written, or (sinceSeen) the first snapshot that showed it. */
  since: z.string(),
  sinceSeen: z.boolean().optional(),
  /** The emergency drift PR of changes made under it (until verified or undone). */
  pullRequest: z.number().optional(),
  /** That PR is merged: what is left is the resume. */
  merged: z.boolean().optional(),
});

/** One field changed under a suspension, with the value the fix set (core/emergency `EmergencyChange`). */
export const emergencyChangeSchema = z.object({
  key: resourceKeySchema,
  pointer: z.string(),
  segments: z.array(pathSegmentSchema),
  field: z.string(),
  value: z.unknown(),
  manager: z.string().optional(),
  time: z.string().optional(),
});

/** An emergency drift PR followed from its opening to "verified" (or "undone"). */
export const emergencyRecordSchema = z.object({
  suspension: suspensionSchema,
  since: z.string(),
  sinceSeen: z.boolean().optional(),
  branch: z.string(),
  pullRequest: z.number(),
  /** What the fix set, field by field: checked against live after the resume. */
  changes: z.array(emergencyChangeSchema),
  checklist: z.object({ merged: z.boolean(), resumed: z.boolean(), applied: z.boolean(), inSync: z.boolean() }),
  /** The merge commit, once the PR is merged. */
  mergeSha: z.string().optional(),
  /** Capture time of the first snapshot that showed the source reconciling again. */
  resumedAt: z.string().optional(),
  outcome: z.enum(['verified', 'undone']).optional(),
  /** Capture time of the snapshot that verified it: the fix is followed for emergency.followFor from then. */
  verifiedAt: z.string().optional(),
  /** After "verified": the fields whose live value moved away from the merged value, since when. */
  moved: z
    .object({
      at: z.string(),
      fields: z.array(
        z.object({
          key: resourceKeySchema,
          field: z.string(),
          pointer: z.string(),
          from: z.unknown(),
          to: z.unknown(),
          manager: z.string().optional(),
          time: z.string().optional(),
        }),
      ),
    })
    .optional(),
  /** After "verified": the fields Git changed since (no longer followed). */
  released: z.array(z.string()).optional(),
});

export const RECONCILE_OUTCOMES = [
  'codified',
  /** Drift that writes nothing into Git: reported only, or an emergency switch waiting for a person's decision. */
  'reported',
  'no-drift',
  'not-configured',
  'config-invalid',
  'manifest-problems',
  'self-check-failed',
  'out-of-scope',
  'not-installed',
  'no-snapshot',
  /** The queue gave the job up (its last attempt failed, or the App did not survive it). */
  'failed',
] as const;

/** A person's change its controller will undo, followed to the next snapshot (core/pipeline undone.ts). */
const watchedSchema = z.object({
  key: resourceKeySchema,
  path: z.string(),
  segments: z.array(pathSegmentSchema),
  fingerprint: z.string(),
  manager: z.string().optional(),
  time: z.string().optional(),
  by: z.string(),
});

/** A drift item a PR comment command can name (core/commands `CommandItem`): its evidence and fingerprint. */
const commandItemSchema = z.object({
  branch: z.string(),
  key: resourceKeySchema,
  field: z.string(),
  path: z.string(),
  fingerprint: z.string(),
  change: z.enum(['replace', 'add', 'remove', 'extra', 'missing']),
  manager: z.string().optional(),
  operation: z.string().optional(),
  time: z.string().optional(),
  cause: z.enum(['human', 'controller', 'applier', 'unknown']),
  status: z.enum(['proposed', 'held-back', 'reported']),
  why: z.string().optional(),
  risk: z.array(z.object({ code: z.enum(RISK_CODES), why: z.string(), allowed: z.string().optional() })).optional(),
  next: z
    .object({
      by: z.string(),
      what: z.enum(['undo', 'undo-at-commit', 'keep', 'wait']),
      when: z.string().optional(),
      why: z.string(),
    })
    .optional(),
});

/**
 * Per cluster, between reconciles: the branches and pull requests the App owns, the commits it wrote,
 * and what the dashboard and /metrics show (counts, conflicts, problems, PRs). Add a field here.
 */
export const clusterStateSchema = z.object({
  /** When the last reconcile (or its give-up) finished: a new value refreshes the dashboard. */
  lastReconcileAt: z.string().optional(),
  /** Digest of the latest snapshot's live state (liveStateDigest): the same one brings nothing for plans. */
  liveDigest: z.string().optional(),
  /** How the last reconcile ended, and why when it stopped early. */
  outcome: z.object({ type: z.enum(RECONCILE_OUTCOMES), message: z.string().optional() }).optional(),
  /**
   * A render stopped by a job limit: its inputs (HEAD's tree, the live state, the limits) and the
   * message. The same inputs within the hour are not rendered again; the message is repeated.
   */
  limitStopped: z.object({ key: z.string(), message: z.string(), at: z.string() }).optional(),
  drift: z
    .object({
      /** Resources with persistent drift, by the cause of their changes (a resource counts once per cause). */
      byCause: z.record(z.string(), z.number()),
      /** Resources with persistent drift (absent in state recorded before it was kept). */
      objects: z.number().optional(),
      /** Their live changes by cause (an object missing or extra as a whole is one). */
      changes: z.record(z.string(), z.number()).optional(),
      /** Changes seen but not yet in enough consecutive snapshots. */
      pending: z.number(),
      /** One line per GitOps source (`flux-system/apps: 1 object, 4 live changes`); absent for a cluster applied by kubectl. */
      sources: z.array(z.string()).optional(),
      /** What the sources' render could not check or does not support (`flux-system/apps: … from a Secret …`). */
      notChecked: z.array(z.string()).optional(),
      /** Drift reported and never codified (the dashboard lists it), with who changed it and when, when known. */
      reported: z
        .array(
          z.object({
            resource: resourceKeySchema,
            field: z.string().optional(),
            /** The field with keyed list items named by key, for the dashboard's path. */
            segments: z.array(pathSegmentSchema).optional(),
            reason: z.string(),
            manager: z.string().optional(),
            time: z.string().optional(),
          }),
        )
        .optional(),
      /**
       * Security-relevant drift waiting for a person's decision (the dashboard shows it first, the
       * gauges count it by code); `segments` name keyed list items by key.
       */
      risky: z
        .array(
          z.object({
            resource: resourceKeySchema,
            field: z.string().optional(),
            segments: z.array(pathSegmentSchema).optional(),
            manager: z.string().optional(),
            time: z.string().optional(),
            risk: z.array(z.object({ code: z.string(), why: z.string() })),
          }),
        )
        .optional(),
      /** Workloads whose manifest declares replicas while an HPA (in Git or live) targets them. */
      autoscaledReplicas: z
        .array(
          z.object({
            resource: resourceKeySchema,
            hpa: z.string(),
            file: z.string().optional(),
            line: z.number().optional(),
          }),
        )
        .optional(),
      /** Undecided risky items by risk code, all of them (`risky` keeps the first 50). */
      riskByCode: z.record(z.string(), z.number()).optional(),
      /** People's changes their controller is about to undo, per controller, as the dashboard shows them. */
      undo: z
        .array(
          z.object({
            by: z.string(),
            what: z.string(),
            due: z.string().optional(),
            dueAt: z.string().optional(),
            overdue: z.boolean().optional(),
            remedy: z.string(),
            rows: z.array(
              z.object({
                resource: z.string(),
                field: z.string(),
                who: z.string(),
                when: z.string(),
                time: z.string().optional(),
                effect: z.string(),
                why: z.string(),
              }),
            ),
            omitted: z.number(),
          }),
        )
        .optional(),
      /** The changes followed to the next snapshot to see whether their controller undid them. */
      watch: z.array(watchedSchema).optional(),
      /** Followed changes a later snapshot showed undone, kept for a day after: who, when, by which controller. */
      undone: z.array(watchedSchema.extend({ at: z.string(), exact: z.boolean() })).optional(),
    })
    .optional(),
  /** Fields Git declares that a controller owns; `segments` name keyed list items by key. */
  conflicts: z
    .array(
      z.object({
        resource: resourceKeySchema,
        path: z.string(),
        segments: z.array(pathSegmentSchema).optional(),
        manager: z.string(),
      }),
    )
    .optional(),
  ignored: z.array(z.object({ reason: z.string(), count: z.number() })).optional(),
  /** Open drift PRs (the first one is the cluster's PR with `groupBy: cluster`). */
  openPullRequests: z.array(z.object({ number: z.number() })).optional(),
  problems: z.array(sourceProblemSchema).optional(),
  branches: z.record(z.string(), branchStateSchema).optional(),
  /** The files the last render read: fetched up front by the next reconcile. */
  filesRead: z.array(z.string()).optional(),
  /** Sources told to stop reconciling in the latest snapshot. */
  suspensions: z.array(suspensionStateSchema).optional(),
  /** Emergency drift PRs followed to "verified" (or "undone"), by suspension id. */
  emergencies: z.record(z.string(), emergencyRecordSchema).optional(),
  /** The items the cluster's drift PRs show (proposed, held back, reported): what PR comment commands name. */
  items: z.array(commandItemSchema).optional(),
  /** The `driftback / security` check run last written for this cluster: on which commit, what it said. */
  securityCheck: z
    .object({ headSha: z.string(), conclusion: z.enum(['success', 'failure']), hash: z.string() })
    .optional(),
  /** The open issue where a person decides about emergency switches no drift PR shows: its text's hash and the switches it lists. */
  switchIssue: z
    .object({
      issue: z.number(),
      hash: z.string(),
      switches: z.array(
        z.object({
          key: resourceKeySchema,
          path: z.string(),
          field: z.string(),
          live: z.unknown().optional(),
          pullRequest: z.number().optional(),
        }),
      ),
    })
    .optional(),
});

/**
 * Per repository (what lets the next reconcile skip reads): the default branch's name and the HEAD
 * last read (its tree), and which branches webhooks spoke of.
 */
export const repositoryStateSchema = z.object({
  headSha: z.string().optional(),
  /** The root tree of `headSha`. */
  headTreeSha: z.string().optional(),
  defaultBranch: z.string().optional(),
  /** When `defaultBranch` was last read from GitHub. */
  defaultBranchCheckedAt: z.string().optional(),
  /** When `headSha` was learned: read from GitHub, or from a push to the default branch. */
  headAt: z.string().optional(),
  /** A push webhook did not follow on from `headSha` (one missed, or out of order): read HEAD again. */
  headStale: z.boolean().optional(),
  /** Branch → when the last pull_request or push webhook about it (or its PR) arrived. */
  branchEvents: z.record(z.string(), z.string()).optional(),
});

/**
 * A GitOps controller object (Flux Kustomization or HelmRelease, Argo CD Application). `kind` is
 * unknown only for entries carried over from version 1, which stored `<cluster>/<namespace>/<name>`.
 */
export const reconcilerRefSchema = z.object({
  kind: z.enum(['flux-kustomization', 'flux-helmrelease', 'argocd-application']).optional(),
  namespace: z.string(),
  name: z.string(),
});

/**
 * What the scheduled watch remembers per repository between runs: open alert issues, since when a
 * condition holds, which snapshot each cluster's open plans were last refreshed for, and the
 * dashboard's last fingerprint.
 */
export const watchStateSchema = z.object({
  /** cluster → first time it was seen configured (the age of a cluster that never reported). */
  configuredAt: z.record(z.string(), z.string()).optional(),
  /** cluster → the open "not reporting" issue. */
  notReporting: z.record(z.string(), z.object({ issue: z.number(), since: z.string() })).optional(),
  /** cluster → the GitOps controllers not reconciling: since when, why, and their issue once opened. */
  notReconciling: z
    .record(
      z.string(),
      z.array(
        z.object({
          reconciler: reconcilerRefSchema,
          since: z.string(),
          reason: z.string(),
          issue: z.number().optional(),
        }),
      ),
    )
    .optional(),
  /** cluster → `<suspension id>#<pull request>` → the "fix undone" issue opened for that emergency PR. */
  undone: z.record(z.string(), z.record(z.string(), z.object({ issue: z.number() }))).optional(),
  /** cluster → suspension id → the open "still suspended" issue. */
  suspended: z.record(z.string(), z.record(z.string(), z.object({ issue: z.number() }))).optional(),
  /**
   * cluster → the live state (its digest, else the snapshot id) the open pull requests' plans were
   * refreshed for.
   */
  plannedSnapshots: z.record(z.string(), z.string()).optional(),
  dashboard: z.string().optional(),
  /** What the dashboard issue says, without what only the clock changes: the same digest is no rewrite. */
  dashboardDigest: z.string().optional(),
});

export type BranchState = z.infer<typeof branchStateSchema>;
export type ClusterState = z.infer<typeof clusterStateSchema>;
export type RepositoryState = z.infer<typeof repositoryStateSchema>;
export type WatchState = z.infer<typeof watchStateSchema>;
export type SuspensionState = z.infer<typeof suspensionStateSchema>;
export type EmergencyRecord = z.infer<typeof emergencyRecordSchema>;
export type ReconcileOutcomeType = (typeof RECONCILE_OUTCOMES)[number];

export const STATE_SCHEMAS = {
  cluster: clusterStateSchema,
  repository: repositoryStateSchema,
  watch: watchStateSchema,
} as const;
export type StateKind = keyof typeof STATE_SCHEMAS;
export interface StateOf {
  cluster: ClusterState;
  repository: RepositoryState;
  watch: WatchState;
}

/** Which state of which repository (and cluster). */
export type StateKey =
  | { kind: 'cluster'; repository: string; cluster: string }
  | { kind: 'repository'; repository: string }
  | { kind: 'watch'; repository: string };
