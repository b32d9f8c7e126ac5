// `--format json`: the DESIGN.md "Command line" document. Only resources that are not in sync, or
// that hold a conflict, are listed (the summary counts the rest); only changes that count, never
// ignored ones. `conflicts` (Git declares a field a controller owns) is an addition to the documented
// shape, present only when there is one; so is `risky`, the security-relevant drift, listed first.
import { undoneJson, type UndoneRow } from './undo-rows.js';
import { suspensionJson } from '../model/index.js';
import type {
  DiffResult,
  NotRenderedSource,
  FieldChange,
  ResourceDiff,
  NextMove,
  Risk,
  SourceReport,
  SuspensionNotice,
} from '../model/index.js';
import { skippedEntry, type SkippedObject } from '../k8s/object-names.js';
import { neverCodified } from '../codify/index.js';
import { riskyDrift } from '../risk/index.js';
import { describeOwner } from '../ownership/index.js';

export interface JsonChange {
  path: string;
  desired?: unknown;
  live?: unknown;
  op: FieldChange['op'];
  manager?: string;
  time?: string;
  cause: FieldChange['cause'];
  /** Security-relevant drift: `[{code, why}]`, with `allowed` when a decision lets it be codified. */
  risk?: Risk[];
  /** What the controller that applies the object does next to it (`{by, what, when, why, suspend}`). */
  next?: NextMove;
}

export interface JsonResource {
  id: { group: string; kind: string; namespace: string; name: string };
  status: ResourceDiff['status'];
  /** An object made by hand that is security-relevant as a whole (an `extra` binding to cluster-admin). */
  risk?: Risk[];
  changes: JsonChange[];
  health?: { status: string; message?: string };
  conflicts?: Array<{ path: string; manager: string; time?: string; desired: unknown; live: unknown; fix: string }>;
}

/** One item of risky drift: what a person must look at first. */
export interface JsonRisky {
  id: JsonResource['id'];
  path?: string;
  manager?: string;
  time?: string;
  risk: Risk[];
}

export interface JsonDiffDocument {
  /** Security-relevant drift still waiting for a person's decision; absent when there is none. */
  risky?: JsonRisky[];
  resources: JsonResource[];
  /** Reported and never codified: imperative actions, autoscaled replicas, chart output changed by hand, Pods. */
  reported?: Array<{
    id: JsonResource['id'];
    path?: string;
    manager?: string;
    time?: string;
    cause: FieldChange['cause'];
    reason: string;
    risk?: Risk[];
    next?: NextMove;
  }>;
  /** Live objects Git lacks that are not extra, by owner ("managed by Helm release podinfo/podinfo"). */
  owners?: Array<{ owner: string; class: string; objects: Array<JsonResource['id']> }>;
  summary: { inSync: number; modified: number; missing: number; extra: number; ignored: number };
}

function jsonChange(change: FieldChange): JsonChange {
  return {
    path: change.path,
    desired: change.desired,
    live: change.live,
    op: change.op,
    manager: change.manager,
    time: change.time,
    cause: change.cause,
    ...(change.risk?.length ? { risk: change.risk } : {}),
    ...(change.next ? { next: change.next } : {}),
  };
}

function risky(result: DiffResult): JsonRisky[] {
  return riskyDrift(result).map((item) => ({
    id: { ...item.key },
    ...(item.change ? { path: item.change.path } : {}),
    ...(item.manager ? { manager: item.manager } : {}),
    ...(item.time ? { time: item.time } : {}),
    risk: item.risk,
  }));
}

function owners(result: DiffResult): JsonDiffDocument['owners'] {
  const groups = new Map<string, { owner: string; class: string; objects: Array<JsonResource['id']> }>();
  for (const object of result.owned ?? []) {
    const owner = describeOwner(object.owner);
    if (!groups.has(owner)) groups.set(owner, { owner, class: object.owner.class, objects: [] });
    groups.get(owner)!.objects.push({ ...object.key });
  }
  return [...groups.values()];
}

export function diffToJson(result: DiffResult): JsonDiffDocument {
  const { inSync, modified, missing, extra, ignored } = result.summary;
  const reported = neverCodified(result).map((entry) => ({
    id: { ...entry.key },
    ...(entry.change ? { path: entry.change.path } : {}),
    ...(entry.manager ? { manager: entry.manager } : {}),
    ...(entry.time ? { time: entry.time } : {}),
    cause: entry.cause ?? 'unknown',
    reason: entry.reason,
    ...(entry.risk ? { risk: entry.risk } : {}),
    ...(entry.change?.next ? { next: entry.change.next } : {}),
  }));
  const grouped = owners(result) ?? [];
  const first = risky(result);
  return {
    ...(first.length ? { risky: first } : {}),
    resources: result.resources
      .filter((resource) => resource.status !== 'in-sync' || resource.conflicts.length > 0)
      .map((resource) => ({
        id: {
          group: resource.key.group,
          kind: resource.key.kind,
          namespace: resource.key.namespace,
          name: resource.key.name,
        },
        status: resource.status,
        ...(resource.risk?.length ? { risk: resource.risk } : {}),
        changes: resource.changes.map(jsonChange),
        health:
          resource.live && resource.health
            ? { status: resource.health.status, message: resource.health.message }
            : undefined,
        ...(resource.conflicts.length > 0
          ? {
              conflicts: resource.conflicts.map(({ path, manager, time, desired, live, fix }) => ({
                path,
                manager,
                time,
                desired,
                live,
                fix,
              })),
            }
          : {}),
      })),
    summary: { inSync, modified, missing, extra, ignored },
    ...(reported.length ? { reported } : {}),
    ...(grouped.length ? { owners: grouped } : {}),
  };
}

/** What a diff report shows beside the resources: sources, suspensions, objects never written as files. */
export interface DiffExtras {
  /** The per-source results, when the cluster has GitOps sources. */
  sources?: readonly SourceReport[];
  /** Sources told to stop reconciling: drift under them is not being reverted. */
  suspensions?: readonly SuspensionNotice[];
  /** Live objects whose identity is at fault: listed, never written as files. */
  skipped?: readonly SkippedObject[];
  /** Set when part of the cluster was not rendered: the result is partial. */
  partial?: true;
  /** The parts not rendered, with why (a source's build problem, a Helm chart, a remote base). */
  notRendered?: readonly NotRenderedSource[];
  /** Changes an earlier snapshot showed and a later one shows undone by their controller. */
  undone?: readonly UndoneRow[];
}

/** One JSON document; undefined fields are left out (an `add` has no `desired`). */
export function renderDiffJson(result: DiffResult, extras: DiffExtras = {}): string {
  const { sources, suspensions, skipped, partial, notRendered, undone } = extras;
  const document = {
    ...(partial ? { partial } : {}),
    ...diffToJson(result),
    ...(sources?.length ? { sources } : {}),
    ...(suspensions?.length ? { suspensions: suspensions.map(suspensionJson) } : {}),
    ...(skipped?.length ? { skipped: skipped.map(skippedEntry) } : {}),
    ...(notRendered?.length ? { notRendered } : {}),
    ...(undone?.length ? { undone: undoneJson(undone) } : {}),
  };
  return JSON.stringify(document, null, 2) + '\n';
}
