// The App's webhook handlers (push, installation, pull requests): short adapters that enqueue
// reconciles and record what a webhook tells. wiring.ts subscribes them.
export { onInstallation, onPullRequestClosed, onPullRequestEvent, onPush, type WebhookDeps } from './handlers.js';
export { enqueueClustersOf } from './enqueue-clusters.js';
