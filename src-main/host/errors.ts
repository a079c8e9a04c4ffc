/**
 * How both transport bindings (WebSocket, Electron IPC) turn a failed dispatch into the
 * `{code, message}` the clients re-throw as ApiError. Kept in one place so the two shells
 * report the same error for the same failure.
 */
import { ApiError, ERROR_CODES } from '../api/contract';
import type { ApiErrorData, ErrorCode } from '../api/contract';

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

export function toErrorData(err: unknown): ApiErrorData {
  if (err instanceof ApiError) return { code: err.code, message: err.message };
  // Duck-typed too: a second copy of the contract module (tests, bundling) makes instanceof fail.
  // Node system errors also carry `code` ('ENOENT'), but never one of ours.
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string' && KNOWN.has(err.code)) {
    const message = 'message' in err && typeof err.message === 'string' ? err.message : err.code;
    return { code: err.code as ErrorCode, message };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: message || 'internal error' };
}
