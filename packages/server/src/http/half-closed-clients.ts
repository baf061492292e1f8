/**
 * A Node HTTP server that answers a client which half-closes after sending its request (a
 * shutdown of its writing side, as some HTTP/1.0 clients and proxies do). Node's default
 * (`httpAllowHalfOpen` false) ends the socket at the client's end and drops the answer of a
 * request it is running: a write committed and never answered. With it on, the socket ends
 * after that answer. The reference server sets it on its listener. ocs-mock does not: there a
 * client's end must end a `hang` scenario (a test's client that gives up closes its socket,
 * and half-open, its end would no longer say it left).
 */
export function answerHalfClosedClients(server: object): void {
  Object.assign(server, { httpAllowHalfOpen: true });
}
