// Errors the store raises at its edge. A lost database connection is reported as such, with what to
// check, instead of leaking a driver-specific message; the next call reconnects on its own.

export class StoreUnavailableError extends Error {
  constructor(backend: 'sqlite' | 'postgres', cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const hint =
      backend === 'postgres'
        ? 'check that PostgreSQL is running and DATABASE_URL points at it; the next call reconnects'
        : 'check that DATA_DIR is writable and the disk is not full';
    super(`database unavailable (${backend}): ${detail}; ${hint}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

// SQLSTATE classes 08 (connection exception) and 57P (operator intervention: admin shutdown,
// crash shutdown, cannot connect now) plus Node socket errors all mean "the connection is gone".
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH']);

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08') || code.startsWith('57P')))
    return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(error.message);
}
