// Security-relevant drift, a classification on top of cause: which changes and objects escalate RBAC,
// pull images from registries the repository does not use, grant privileges or come from unknown
// managers; the decisions that let them be codified; and the list every report shows first.
export { classifyRisk, type RiskInput } from './classify-risk.js';
export { allowDecidedSwitches } from './allow-switches.js';
export type { RiskDecision, RiskDecisions } from './allow-risky.js';
export { heldBackReason, riskCounts, riskyDrift, type RiskyItem } from './risky-drift.js';
