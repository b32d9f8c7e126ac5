// Who is uploading, settled from the request line and headers before a byte of the body is read:
// the agent names its repository and cluster in headers, so its token is verified first and a wrong
// one costs the App nothing but this check. Failed attempts are counted per client address and per
// claimed cluster: an address over its budget is refused before its token is even looked at; a
// cluster over its budget refuses every token but its own (so an agent is never locked out by
// someone else's guesses, while guesses spread over many addresses are still bounded).
import type { IncomingMessage } from 'node:http';
import { verifyToken } from '../../core/token/index.js';
import { bearerToken } from '../http.js';
import type { RateLimiter } from './rate-limit.js';

export const REPOSITORY_HEADER = 'x-driftback-repository';
export const CLUSTER_HEADER = 'x-driftback-cluster';

export interface AuthenticateDeps {
  tokenSecret: string;
  /** Failed authentications per client address, and per claimed `<repository>#<cluster>`. */
  failures: RateLimiter;
  /** Reverse proxies in front of the App whose X-Forwarded-For entries are trusted (DRIFTBACK_TRUST_PROXY). Default 0. */
  proxyHops?: number;
}

export type Authenticated =
  | { type: 'ok'; repository: string; cluster: string }
  | { type: 'refused'; status: 401; message: string }
  | { type: 'blocked'; status: 429; message: string; retryAfterSeconds: number };

/**
 * The client's address. With no trusted proxy, the TCP peer. Behind `hops` proxies, each appends the
 * address it received the request from to X-Forwarded-For, so the client is the `hops`-th entry from
 * the right; anything left of it was written by the client and is never believed. As Express's
 * numeric `trust proxy` ("trust the nth hop from the front-facing proxy server as the client"): with
 * fewer entries than hops, the left-most one.
 */
export function clientAddress(req: IncomingMessage, hops = 0): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (hops <= 0) return peer;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (forwarded.length === 0) return peer;
  return forwarded[Math.max(0, forwarded.length - hops)];
}

/** The failure budget key of a claimed cluster (never an address: `#` cannot start one). */
const claimKey = (repository: string, cluster: string): string => `#${repository.toLowerCase()}#${cluster}`;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function authenticate(
  deps: AuthenticateDeps,
  req: IncomingMessage,
  nowMs: number,
  claimed?: { repository: string; cluster: string },
): Authenticated {
  const address = clientAddress(req, deps.proxyHops);
  const budget = deps.failures.peek(address, nowMs);
  if (!budget.ok) {
    return {
      type: 'blocked',
      status: 429,
      retryAfterSeconds: budget.retryAfterSeconds,
      message: `too many failed authentications from ${address}: retry after ${budget.retryAfterSeconds}s with a valid token`,
    };
  }
  const repository = claimed?.repository ?? header(req, REPOSITORY_HEADER);
  const cluster = claimed?.cluster ?? header(req, CLUSTER_HEADER);
  const token = bearerToken(req);
  const refuse = (message: string): Authenticated => {
    deps.failures.take(address, nowMs);
    if (repository && cluster) deps.failures.take(claimKey(repository, cluster), nowMs);
    return { type: 'refused', status: 401, message };
  };
  if (!token)
    return refuse(
      'missing token: send Authorization: Bearer <token> (driftback token --repository <owner/name> --cluster <name>)',
    );
  if (!repository || !cluster) {
    return refuse(
      `send the snapshot's repository and cluster as X-Driftback-Repository and X-Driftback-Cluster headers with its token (the driftback agent does): the token is checked before the body is read`,
    );
  }
  if (verifyToken(deps.tokenSecret, token, repository, cluster)) return { type: 'ok', repository, cluster };
  const claimedBudget = deps.failures.peek(claimKey(repository, cluster), nowMs);
  if (!claimedBudget.ok) {
    return {
      type: 'blocked',
      status: 429,
      retryAfterSeconds: claimedBudget.retryAfterSeconds,
      message: `too many failed authentications for repository ${repository} cluster ${cluster}: retry after ${claimedBudget.retryAfterSeconds}s with a valid token`,
    };
  }
  return refuse(
    `the token is not valid for repository ${repository} cluster ${cluster}: create it with driftback token --repository ${repository} --cluster ${cluster}`,
  );
}
