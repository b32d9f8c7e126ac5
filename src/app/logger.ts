// The App's one logger (pino, JSON lines), shared by Probot, its HTTP request log (pino-http) and
// every job. Credentials never reach a log line: request and response headers that carry them are
// redacted wherever they appear, at the top level, on a request or response, or on an error.
import { pino, type DestinationStream, type Logger } from 'pino';

/** Headers that carry credentials (lower case, as Node and Octokit spell them). */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];

/** Where a header object sits in what the App, Probot and pino-http log. */
const HEADER_HOLDERS = [
  'headers',
  'req.headers',
  'res.headers',
  'request.headers',
  'response.headers',
  'err.request.headers',
  'err.response.headers',
  'error.request.headers',
  '*.headers',
];

/**
 * The one logger interface every part of the App is handed (Probot's `app.log`, a pino logger, fits
 * it): structured fields first, then the message.
 */
export interface AppLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export const REDACTED_PATHS = HEADER_HOLDERS.flatMap((holder) =>
  SECRET_HEADERS.map((header) => `${holder}["${header}"]`),
);

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { name: 'probot', level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
