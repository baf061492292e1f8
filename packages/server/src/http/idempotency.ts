/**
 * `Idempotency-Key` on create campaign (section 4): the first request with a key claims it
 * (a row per organization and key, with a fingerprint of the request and a lease); repeats
 * replay the stored answer for 24 hours, a different request with the same key answers
 * `409 IDEMPOTENCY_KEY_REUSED`, and a repeat while the first runs answers
 * `409 IDEMPOTENCY_IN_PROGRESS` with `Retry-After`. The claim is one statement in the store,
 * so concurrent requests and several processes agree on who runs.
 */
import { sha256Hex } from '../domain/hash.ts';
import type { Store } from '../store/types.ts';
import { ApiError } from './api-error.ts';

export interface IdempotencyPolicy {
  /** How long an answer is replayed. The specification asks for at least 24 hours. */
  ttlMs: number;
  /** How long a claim may run before another request may take the key over. */
  leaseMs: number;
}

export const defaultIdempotency: IdempotencyPolicy = { ttlMs: 24 * 60 * 60 * 1000, leaseMs: 60_000 };

export interface StoredAnswer {
  status: number;
  body: string;
}

export type IdempotentOutcome = { kind: 'replay'; answer: StoredAnswer } | { kind: 'run'; fingerprint: string };

export class IdempotencyKeys {
  constructor(
    private readonly store: Store,
    private readonly policy: IdempotencyPolicy,
  ) {}

  async begin(
    organizationId: string,
    key: string,
    request: { method: string; route: string; body: unknown },
    now: Date,
  ) {
    const fingerprint = await sha256Hex(`${request.method} ${request.route}\n${canonicalJson(request.body)}`);
    const claim = await this.store.idempotency.claim(
      {
        organization_id: organizationId,
        key,
        fingerprint,
        state: 'in_progress',
        locked_until: new Date(now.getTime() + this.policy.leaseMs).toISOString(),
        response_status: null,
        response_body: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + this.policy.ttlMs).toISOString(),
      },
      now.toISOString(),
    );
    if (claim.outcome === 'claimed') return { kind: 'run', fingerprint } satisfies IdempotentOutcome;
    const existing = claim.record;
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError(
        409,
        'IDEMPOTENCY_KEY_REUSED',
        `Idempotency-Key ${key} was already used with a different request. Use a new key for a new request.`,
      );
    }
    if (existing.state === 'in_progress' || existing.response_status === null || existing.response_body === null) {
      const wait = Math.max(1, Math.ceil((Date.parse(existing.locked_until) - now.getTime()) / 1000));
      const retryAfter = Math.min(wait, 5);
      throw new ApiError(
        409,
        'IDEMPOTENCY_IN_PROGRESS',
        `A request with Idempotency-Key ${key} is still being processed. Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
        { headers: { 'Retry-After': String(retryAfter) } },
      );
    }
    return {
      kind: 'replay',
      answer: { status: existing.response_status, body: existing.response_body },
    } satisfies IdempotentOutcome;
  }

  /** Stores the answer of a request that ran (success or a client error) for replay. */
  complete(organizationId: string, key: string, answer: StoredAnswer): Promise<void> {
    return this.store.idempotency.complete(organizationId, key, answer.status, answer.body);
  }

  /** Frees the key after a server-side failure, so that a retry runs the request again. */
  release(organizationId: string, key: string): Promise<void> {
    return this.store.idempotency.release(organizationId, key);
  }
}

/** JSON with object keys sorted, so that key order does not change a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
