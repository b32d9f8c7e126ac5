// The GitHub stand-in the tests run against (see server.ts), and its git object helpers.
export {
  GitHubStandIn,
  isReadRoute,
  type CallCounts,
  type Fault,
  type FaultKind,
  type StandInOptions,
} from './server.js';
export { blobSha, commitSha, encodeCommit, treeSha, type CommitData, type TreeEntry } from './git-objects.js';
export { APP_LOGIN, APP_SLUG } from './state.js';
