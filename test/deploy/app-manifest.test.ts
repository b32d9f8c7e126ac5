// app.yml is the manifest GitHub's App registration flow reads. GitHub refuses a manifest that
// subscribes to an event no App can subscribe to ("Default events unsupported": `installation`,
// `installation_repositories`, which every App receives anyway) or names a permission it does not
// know; and an App whose permissions miss an endpoint it calls fails with 403 on a real
// installation. This test holds app.yml to GitHub's published vocabulary and to the App's own calls.
//
// Vocabulary: `@octokit/webhooks-schemas` (GitHub's webhook payload schemas): an installation's
// `events` enum lists the events an App can subscribe to, its `permissions` object every permission
// with the levels GitHub offers; the `<name>_event` definitions list every event GitHub sends.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createApp } from '../../src/app/wiring.js';
import { REPO_ROOT } from '../support/fixtures.js';

type Level = 'read' | 'write';

interface Manifest {
  default_events: string[];
  default_permissions: Record<string, string>;
}

const manifest = parse(readFileSync(join(REPO_ROOT, 'app.yml'), 'utf8')) as Manifest;

interface WebhookSchema {
  definitions: Record<string, any>;
}
const schema = createRequire(import.meta.url)('@octokit/webhooks-schemas') as WebhookSchema;
const installation = schema.definitions.installation.properties;
const SUBSCRIBABLE: string[] = installation.events.items.enum;
const PERMISSIONS: Record<string, { enum: string[] }> = installation.permissions.properties;
const EVENTS = Object.keys(schema.definitions)
  .filter((name) => name.endsWith('_event'))
  .map((name) => name.slice(0, -'_event'.length));
/** Sent to every App whether it subscribes or not (installation, installation_repositories, …). */
const DELIVERED_TO_EVERY_APP = EVENTS.filter((event) => !SUBSCRIBABLE.includes(event));

/**
 * The repository permission an App must hold to subscribe to an event, from GitHub's "Webhook events
 * and payloads" page (each event's "Availability" note: "a GitHub App must have at least read-level
 * access for the … repository permission").
 */
const EVENT_PERMISSION: Record<string, string> = {
  pull_request: 'pull_requests',
  push: 'contents',
  check_run: 'checks',
  issue_comment: 'issues',
};

/**
 * The permission each REST endpoint the App calls needs, with an installation token. GitHub's OpenAPI
 * description carries no permission per operation (`x-github` holds only category, availability and
 * previews), so this table is taken from GitHub's own data behind "Permissions required for GitHub
 * Apps": github/docs src/github-apps/data/fpt-2022-11-28/server-to-server-permissions.json (commit
 * 058fa63bfe93d4d06889d0d18c601d6c56b66c56). Where several permissions are listed, any one of them
 * suffices. `app` marks endpoints called with the App's own JWT, which need no installation permission.
 */
const ENDPOINT_PERMISSIONS: Record<string, Array<[permission: string, level: Level]> | 'app'> = {
  'GET /app': 'app',
  'GET /repos/{owner}/{repo}/installation': 'app',
  'GET /repos/{owner}/{repo}': [['metadata', 'read']],
  'GET /repos/{owner}/{repo}/contents/{path}': [['contents', 'read']],
  'GET /repos/{owner}/{repo}/tarball/{ref}': [['contents', 'read']],
  'GET /repos/{owner}/{repo}/compare/{basehead}': [['contents', 'read']],
  'GET /repos/{owner}/{repo}/compare/{base}...{head}': [['contents', 'read']],
  'GET /repos/{owner}/{repo}/git/trees/{tree_sha}': [['contents', 'read']],
  'GET /repos/{owner}/{repo}/git/blobs/{file_sha}': [['contents', 'read']],
  'GET /repos/{owner}/{repo}/git/commits/{commit_sha}': [['contents', 'read']],
  'GET /repos/{owner}/{repo}/git/ref/{ref}': [['contents', 'read']],
  'POST /repos/{owner}/{repo}/git/blobs': [['contents', 'write']],
  'POST /repos/{owner}/{repo}/git/trees': [['contents', 'write']],
  'POST /repos/{owner}/{repo}/git/commits': [['contents', 'write']],
  'POST /repos/{owner}/{repo}/git/refs': [['contents', 'write']],
  'PATCH /repos/{owner}/{repo}/git/refs/{ref}': [['contents', 'write']],
  'DELETE /repos/{owner}/{repo}/git/refs/{ref}': [['contents', 'write']],
  'GET /repos/{owner}/{repo}/pulls': [['pull_requests', 'read']],
  'POST /repos/{owner}/{repo}/pulls': [['pull_requests', 'write']],
  'GET /repos/{owner}/{repo}/pulls/{pull_number}': [
    ['pull_requests', 'read'],
    ['contents', 'read'],
  ],
  'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': [['pull_requests', 'write']],
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/files': [['pull_requests', 'read']],
  'GET /repos/{owner}/{repo}/issues': [['issues', 'read']],
  'POST /repos/{owner}/{repo}/issues': [['issues', 'write']],
  'GET /repos/{owner}/{repo}/issues/{issue_number}': [['issues', 'read']],
  'PATCH /repos/{owner}/{repo}/issues/{issue_number}': [
    ['issues', 'write'],
    ['pull_requests', 'write'],
  ],
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments': [
    ['issues', 'read'],
    ['pull_requests', 'read'],
  ],
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments': [
    ['issues', 'write'],
    ['pull_requests', 'write'],
  ],
  'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}': [
    ['issues', 'write'],
    ['pull_requests', 'write'],
  ],
  'POST /repos/{owner}/{repo}/issues/{issue_number}/labels': [
    ['issues', 'write'],
    ['pull_requests', 'write'],
  ],
  'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}': [
    ['issues', 'write'],
    ['pull_requests', 'write'],
  ],
  'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions': [
    ['issues', 'write'],
    ['pull_requests', 'write'],
  ],
  'GET /repos/{owner}/{repo}/collaborators/{username}/permission': [['metadata', 'read']],
  'POST /repos/{owner}/{repo}/check-runs': [['checks', 'write']],
  'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}': [['checks', 'write']],
  'GET /repos/{owner}/{repo}/commits/{ref}/check-runs': [['checks', 'read']],
};

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Every REST endpoint the App's code calls: `octokit.rest.<scope>.<method>` and `request('VERB /path')`. */
function endpointsCalled(): Map<string, string[]> {
  const octokit = new Octokit() as unknown as { rest: Record<string, Record<string, any>> };
  const found = new Map<string, string[]>();
  const add = (endpoint: string, where: string) => found.set(endpoint, [...(found.get(endpoint) ?? []), where]);
  for (const file of sourceFiles(join(REPO_ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const where = file.slice(REPO_ROOT.length + 1);
    for (const [, scope, method] of text.matchAll(/\.rest\.([a-zA-Z]+)\.([a-zA-Z]+)/g)) {
      const defaults = octokit.rest[scope]?.[method]?.endpoint?.DEFAULTS;
      if (!defaults) throw new Error(`${where}: octokit.rest.${scope}.${method} is no Octokit method`);
      add(`${defaults.method} ${defaults.url}`, where);
    }
    for (const [, endpoint] of text.matchAll(/request\(\s*['"`]((?:GET|POST|PATCH|PUT|DELETE) \/[^'"`]*)['"`]/g))
      add(endpoint, where);
  }
  return found;
}

/** The webhook events the App subscribes handlers to (`pull_request.closed` → `pull_request`). */
function eventsHandled(): string[] {
  const events = new Set<string>();
  const probot = {
    on: (names: string | string[]) => {
      for (const name of [names].flat()) events.add(name.split('.')[0]);
    },
  };
  createApp({ probot, store: {}, queue: {}, metrics: {}, now: () => new Date(), log: {} } as any, {
    appId: 1,
    maxSnapshotBytes: 1,
    uploadsPerMinute: 1,
    ingestConcurrency: 1,
  });
  return [...events].sort();
}

const LEVELS: Level[] = ['read', 'write'];

function grants(held: Manifest, permission: string, level: Level): boolean {
  const granted = held.default_permissions[permission] as Level | undefined;
  return granted !== undefined && LEVELS.indexOf(granted) >= LEVELS.indexOf(level);
}

/** What GitHub would refuse in a manifest, or what would fail on an installation made from it. */
function manifestProblems(candidate: Manifest, handled: string[], called: Map<string, string[]>): string[] {
  const problems: string[] = [];
  for (const event of candidate.default_events) {
    if (!SUBSCRIBABLE.includes(event)) problems.push(`default_events: ${event} cannot be subscribed to`);
    else if (!EVENT_PERMISSION[event]) problems.push(`${event}: add the permission it needs to EVENT_PERMISSION`);
    else if (!grants(candidate, EVENT_PERMISSION[event], 'read'))
      problems.push(`default_events: ${event} needs ${EVENT_PERMISSION[event]}: read`);
  }
  for (const [permission, level] of Object.entries(candidate.default_permissions)) {
    if (!PERMISSIONS[permission]) problems.push(`default_permissions: ${permission} is not a GitHub permission`);
    else if (!PERMISSIONS[permission].enum.includes(level))
      problems.push(`default_permissions: ${permission}: ${level} is not a level GitHub offers`);
  }
  for (const event of handled) {
    if (!candidate.default_events.includes(event) && !DELIVERED_TO_EVERY_APP.includes(event))
      problems.push(`the App handles ${event}, which default_events does not subscribe to`);
  }
  for (const [endpoint, files] of called) {
    const needs = ENDPOINT_PERMISSIONS[endpoint];
    if (!needs) problems.push(`${endpoint} (${files[0]}): add the permission it needs to ENDPOINT_PERMISSIONS`);
    else if (needs !== 'app' && !needs.some(([permission, level]) => grants(candidate, permission, level))) {
      const wanted = needs.map(([permission, level]) => `${permission}: ${level}`).join(' or ');
      problems.push(`${endpoint} (${files[0]}) needs ${wanted}`);
    }
  }
  return problems;
}

describe('app.yml as GitHub reads it', () => {
  const handled = eventsHandled();
  const called = endpointsCalled();

  it('reads the vocabulary, the handlers and the calls it checks', () => {
    expect(SUBSCRIBABLE).toEqual(expect.arrayContaining(['pull_request', 'push', 'check_run']));
    expect(DELIVERED_TO_EVERY_APP).toEqual(expect.arrayContaining(['installation', 'installation_repositories']));
    expect(Object.keys(PERMISSIONS)).toEqual(expect.arrayContaining(['contents', 'pull_requests', 'metadata']));
    expect(handled).toEqual([
      'check_run',
      'installation',
      'installation_repositories',
      'issue_comment',
      'pull_request',
      'push',
    ]);
    expect(called.size).toBeGreaterThan(20);
    expect([...called.keys()]).toContain('POST /repos/{owner}/{repo}/check-runs');
  });

  it('is accepted: subscribable events, known permissions, every event received, every call granted', () => {
    expect(manifestProblems(manifest, handled, called)).toEqual([]);
  });

  it('names what GitHub refuses and what an installation would be denied', () => {
    const broken: Manifest = {
      default_events: [...manifest.default_events, 'installation', 'installation_repositories'],
      default_permissions: { ...manifest.default_permissions, checks: 'read', deployments: 'admin' },
    };
    delete broken.default_permissions.issues;
    expect(manifestProblems(broken, handled, called)).toEqual(
      expect.arrayContaining([
        'default_events: installation cannot be subscribed to',
        'default_events: installation_repositories cannot be subscribed to',
        'default_permissions: deployments: admin is not a level GitHub offers',
        expect.stringMatching(/^POST \/repos\/\{owner\}\/\{repo\}\/check-runs \(src\/.*\) needs checks: write$/),
        expect.stringMatching(/^POST \/repos\/\{owner\}\/\{repo\}\/issues \(src\/.*\) needs issues: write$/),
      ]),
    );
    const unsubscribed: Manifest = { ...manifest, default_events: ['push'] };
    expect(manifestProblems(unsubscribed, handled, called)).toContain(
      'the App handles pull_request, which default_events does not subscribe to',
    );
  });
});
