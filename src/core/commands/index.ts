// PR comment commands: `/driftback plan|explain|ignore|allow|help` read from a comment, the drift items
// they name (kept by the reconcile), and the replies the App posts. Which items a decision applies to
// and what it says are decided here; the App only checks the commenter's access and records.
export {
  changesState,
  parseCommand,
  parseObjectRef,
  COMMAND_PREFIX,
  REASON_MAX,
  type Command,
  type ObjectRef,
  type Target,
} from './parse-command.js';
export {
  commandItemsOf,
  itemLabel,
  matchItems,
  objectsOf,
  ITEMS_KEPT,
  type CommandItem,
  type ItemStatus,
} from './command-items.js';
export {
  configChangeText,
  decidedReply,
  decisionLine,
  decisionsSection,
  explainReply,
  givenUpReply,
  helpReply,
  invalidReply,
  noMatchReply,
  notDriftPullRequestReply,
  notOnSwitchIssueReply,
  nothingToDecideReply,
  planReply,
  rateLimitedReply,
  refusalReply,
  type ConfigChange,
  type DecisionView,
  type ListedDecision,
} from './replies.js';
export {
  addIgnoreRules,
  configBranch,
  configIgnoreRules,
  configPullRequestBody,
  configPullRequestTitle,
  ignoreRulesFor,
  ruleReason,
} from './ignore-rule.js';
