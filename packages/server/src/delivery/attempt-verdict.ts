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

/** No answer at all: the connection or the request failed, for `detail`'s reason. */
export function requestFailed(detail: string): string {
  return `request failed: ${detail}`;
}
