/**
 * A Node HTTP server that answers a client which half-closes after sending its request (a
 * shutdown of its writing side, as some HTTP/1.0 clients and proxies do). Node's default
 * (`httpAllowHalfOpen` false) ends the socket at the client's end and drops the answer of a
 * request it is running: a write committed and never answered. With it on, the socket ends
 * after that answer. The reference server sets it on its listener, and ocs-mock on its own;
 * a socket left half-open no longer closes when its client leaves, so ocs-mock ends a `hang`
 * scenario at the socket's 'end' (the client's FIN) itself.
 */
export function answerHalfClosedClients(server: object): void {
  Object.assign(server, { httpAllowHalfOpen: true });
}
