// Who is uploading, settled from the request line and headers before a byte of the body is read:
// the agent names its repository and cluster in headers, so its token is verified first and a wrong
// one costs the App nothing but this check. Failed attempts are counted per client address, and an
// address over its budget is refused before its token is even looked at.
import type { IncomingMessage } from 'node:http';
import { verifyToken } from '../../core/token/index.js';
import { bearerToken } from '../http.js';
import type { RateLimiter } from './rate-limit.js';

export const REPOSITORY_HEADER = 'x-driftback-repository';
export const CLUSTER_HEADER = 'x-driftback-cluster';

export interface AuthenticateDeps {
  tokenSecret: string;
  /** Failed authentications per client address. */
  failures: RateLimiter;
  /** Use the address a reverse proxy appended to X-Forwarded-For (DRIFTBACK_TRUST_PROXY). */
  trustProxy?: boolean;
}

export type Authenticated =
  | { type: 'ok'; repository: string; cluster: string }
  | { type: 'refused'; status: 401; message: string }
  | { type: 'blocked'; status: 429; message: string; retryAfterSeconds: number };

/** The TCP peer, or with a trusted proxy the address it appended (the right-most X-Forwarded-For entry). */
export function clientAddress(req: IncomingMessage, trustProxy = false): string {
  const forwarded = trustProxy
    ? String(req.headers['x-forwarded-for'] ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .at(-1)
    : undefined;
  return forwarded ?? req.socket.remoteAddress ?? 'unknown';
}

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
  const address = clientAddress(req, deps.trustProxy);
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
  if (!verifyToken(deps.tokenSecret, token, repository, cluster)) {
    return refuse(
      `the token is not valid for repository ${repository} cluster ${cluster}: create it with driftback token --repository ${repository} --cluster ${cluster}`,
    );
  }
  return { type: 'ok', repository, cluster };
}
