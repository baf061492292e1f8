/**
 * The request's correlation ID: the caller's `X-Request-ID` when it is acceptable (NOTES.md:
 * `^[A-Za-z0-9._:-]{1,128}$`), otherwise a new one. Invalid values are ignored, not refused.
 */
const acceptable = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: Request): string {
  return requestIdFrom(request.headers.get('x-request-id'));
}

/** The caller's value when acceptable, otherwise a new ID (also for requests Node refused). */
export function requestIdFrom(sent: string | null): string {
  if (sent !== null && acceptable.test(sent)) return sent;
  return `req_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
