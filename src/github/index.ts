// The GitHub edge: everything the App and the CLI call to read and write GitHub.
export { assertOwnBranch, ForbiddenRefError } from './guard.js';
export {
  canWrite,
  permissionOf,
  reactToComment,
  replyOnPullRequest,
  type CommandReaction,
} from './comment-commands.js';
export { isAppAuthored, isAppPullRequest, type AppIdentity } from './authorship.js';
export {
  branchHasForeignCommits,
  type BranchAuthorship,
  type ForeignCommit,
  type ForeignCommitsOptions,
} from './foreign-commits.js';
export {
  createOrUpdateCheckRun,
  ANNOTATIONS_PER_REQUEST,
  type CheckAnnotation,
  type CheckConclusion,
  type CheckRunContent,
  type CheckRunResult,
} from './check-runs.js';
export { closeIssue, findIssueByMarker, upsertIssueByMarker, type IssueContent, type IssueResult } from './issues.js';
export { observeRequests, type RequestObserver } from './instrument.js';
export { contentHash, markerFor, readMarkers, stampMarker, type Marker } from './marker.js';
export { createOctokit, type CreateOctokitOptions } from './octokit.js';
export {
  closePullRequest,
  commentOnce,
  findPullRequest,
  listPullRequestFiles,
  openOrUpdatePullRequest,
  type PullRequestContent,
  type PullRequestResult,
  type PullRequestSummary,
  type PullRequestsFrom,
} from './pulls.js';
export { readFileAt, type ReadFileOptions } from './read-file.js';
export {
  fetchBlobTexts,
  readTreeFiles,
  type BaseTreeListing,
  type ReadTreeOptions,
  type RepoTreeEntry,
  type TreeEntryKind,
  type TreeRead,
} from './read-tree.js';
export { partKey, upsertStickyComment, type StickyCommentResult } from './sticky-comment.js';
export { hasStatus, memoryBlobCache, type BlobCache, type GitHubClient, type RepoRef } from './types.js';
export {
  branchHead,
  deleteBranch,
  writeBranch,
  type DeleteBranchOptions,
  type WriteBranchOptions,
  type WriteBranchResult,
} from './write-branch.js';
