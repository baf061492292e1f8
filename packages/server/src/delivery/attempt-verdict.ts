/**
 * What a delivery attempt's `error` says, in the same words whichever transport sent it (the
 * Node server's sockets or the mock's `fetch`), so that a receiver's operator reads one text
 * for one outcome in both (found by comparing the mock with the server).
 */

/** Null when the status makes the attempt a success; otherwise why it does not. */
export function statusVerdict(status: number | null): string | null {
  if (status === null) return 'no status answered';
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect not followed (${status})`;
  return `receiver answered ${status}`;
}

/** No answer at all: the connection or the request failed, for `error`'s reason (`describeFailure`). */
export function requestFailed(error: unknown): string {
  return `request failed: ${describeFailure(error)}`;
}

/**
 * Why a request failed, in a few words: the system's message, else its code, else the error's
 * name. Happy-eyeballs failures (a host with IPv4 and IPv6 addresses) are an AggregateError
 * with an empty message but a code. fetch's own `fetch failed` says nothing: its cause does.
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message === 'fetch failed' && error.cause instanceof Error) return describeFailure(error.cause);
  const reason = error.message || (error as { code?: string }).code || error.name;
  return error.cause instanceof Error ? `${reason}: ${describeFailure(error.cause)}` : reason;
}
