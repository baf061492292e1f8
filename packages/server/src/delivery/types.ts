/**
 * The contract between the parts of `prospect_response` delivery (section 6): the payload
 * builder, the outbox the reply is written to, the worker that drains it, and the transport
 * that makes one HTTP attempt. Web-standard types only: the Node transport (connect-time
 * SSRF guard over `node:http`) lives under `src/node/`, a `fetch` one serves the mock.
 */

/** One HTTP attempt at one webhook: the exact bytes, already signed when the webhook has a secret. */
export interface DeliveryRequest {
  url: string;
  /** The exact bytes of the body; retries send these same bytes. */
  body: Uint8Array;
  /** `Content-Type`, `User-Agent`, and `X-Signature-256` when signed. */
  headers: Record<string, string>;
}

/** What one attempt at one webhook came to. Only a 2xx answered within the timeout is `ok`. */
export interface AttemptOutcome {
  ok: boolean;
  /** The status answered, or null when none was (refused target, connection error, timeout). */
  status: number | null;
  duration_ms: number;
  /** Why it failed, for the operator (`timeout after 75000 ms`, `redirect not followed (302)`, `target refused: ...`); null when ok. */
  error: string | null;
  /**
   * True when the caller's `signal` ended the attempt before the receiver answered (the
   * server stopping), not the timeout: such an attempt says nothing about the receiver.
   */
  aborted?: boolean;
}

/**
 * Makes one attempt. Never throws: every failure is an `AttemptOutcome` with `ok: false`.
 * When `signal` aborts, the request is dropped at once and the outcome says `aborted`.
 */
export interface WebhookTransport {
  send(request: DeliveryRequest, options?: { signal?: AbortSignal }): Promise<AttemptOutcome>;
}

/** Section 6 and NOTES.md: first attempt at once, then every 15 minutes, at most 5, none after 48 hours. */
export const deliveryPolicy = {
  timeoutMs: 75_000,
  retryIntervalMs: 15 * 60_000,
  maxAttempts: 5,
  windowMs: 48 * 3_600_000,
} as const;

/** What a delivery worker has done since it was made. */
export interface DeliveryCounts {
  /** Attempts made (one per delivery claimed and sent, however many webhooks it reached). */
  attempts: number;
  /** HTTP requests made. */
  requests: number;
  delivered: number;
  /** Attempts that failed and were scheduled again. */
  retried: number;
  /**
   * Attempts cut short because the worker stopped (`stop({ abandon })`): not counted against
   * the delivery, which is due again at once, for the next start. (A delivery claimed but
   * not yet sent when the stop gave up is handed back too, untried, and not counted here.)
   */
  handedBack: number;
  failed: number;
  /**
   * Claims found lost: completions refused (taken over after the lease ran out), and claimed
   * deliveries not sent because, read again just before sending, they were cancelled (the
   * lead was erased) or taken over.
   */
  claimsLost: number;
}
