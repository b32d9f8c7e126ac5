// What every GitHub step of one reconcile shares: the client, the repository, the default
// branch's HEAD the branches are built on, and how the App recognises its own commits.
import type { Config } from '../../core/config/index.js';
import type { Checklist, EmergencyChange } from '../../core/emergency/index.js';
import type { ListedDecision } from '../../core/commands/index.js';
import type { SuspensionView, TemplateOverrides } from '../../core/report/index.js';
import {
  branchHasForeignCommits,
  type AppIdentity,
  type BaseTreeListing,
  type GitHubClient,
} from '../../github/index.js';
import type { AppLogger } from '../logger.js';
import type { Documents } from '../isolation/documents.js';
import type { BranchState } from './state.js';

/** One suspension's part of an emergency drift PR. */
export interface EmergencySection {
  view: SuspensionView;
  changes: EmergencyChange[];
  checklist: Checklist;
  /** `emergency.resumeWithin`: the section gives the deadline it sets. */
  resumeWithin?: string;
}

export interface GitHubContext {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  defaultBranch: string;
  /** The default branch's HEAD: every drift branch is one commit on top of it. */
  baseSha: string;
  baseListing: BaseTreeListing | undefined;
  config: Config;
  cluster: string;
  snapshot: { id: string; capturedAt: string };
  /** The repository's template overrides, read from the default branch's HEAD with the manifests. */
  templates?: TemplateOverrides;
  /** Renders documents: one with a template override in a job worker. Default: in place. */
  documents?: Documents;
  /** Branch → the emergency procedure its PR walks (drift made under a suspension). */
  emergency?: ReadonlyMap<string, EmergencySection[]>;
  /** Branch → the decisions people made with comment commands that its PR lists in its body. */
  decisions?: ReadonlyMap<string, ListedDecision[]>;
  /** `<slug>[bot]`, when known: commits GitHub attributes to it are the App's. */
  appLogin: string | undefined;
  /** The App: comments it wrote are found again by their marker, others' are left alone. */
  app: AppIdentity;
  /** Branch → when the last webhook about it or its PR arrived (what the App knows of it is older). */
  branchEvents?: Record<string, string>;
  now: () => Date;
  log: AppLogger;
}

/** Commits on the branch (beyond the default branch) that the App did not write. */
export async function foreignCommitsOn(
  ctx: GitHubContext,
  branch: string,
  previous: BranchState | undefined,
): Promise<string[]> {
  const appCommitShas = previous?.appCommits ?? [];
  // Without a way to recognise its own commits, the App must assume the branch is someone's.
  if (appCommitShas.length === 0 && !ctx.appLogin) return ['(unknown author)'];
  const authorship = await branchHasForeignCommits(ctx.octokit, {
    owner: ctx.owner,
    repo: ctx.repo,
    branch,
    base: ctx.defaultBranch,
    appCommitShas,
    ...(ctx.appLogin ? { appLogin: ctx.appLogin } : {}),
  });
  return authorship.type === 'foreign'
    ? authorship.commits.map((commit) => `${commit.sha.slice(0, 7)} by ${commit.author}`)
    : [];
}
