/**
 * `Idempotency-Key` on create campaign (section 4): the first request with a key claims it
 * (a row per organization and key, with a fingerprint of the request and a lease); repeats
 * replay the stored answer for 24 hours, a different request with the same key answers
 * `409 IDEMPOTENCY_KEY_REUSED`, and a repeat while the first runs answers
 * `409 IDEMPOTENCY_IN_PROGRESS` with `Retry-After`. The claim is one statement in the store,
 * so concurrent requests and several processes agree on who runs.
 */
import { sha256Hex } from '../domain/hash.ts';
import { operationDigest } from '../domain/request-fingerprint.ts';
import type { IdempotencyRecord } from '../store/records.ts';
import { erasedFingerprint, type HeldClaim, type Store } from '../store/types.ts';
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

export type IdempotentOutcome = { kind: 'replay'; answer: StoredAnswer } | { kind: 'run'; claim: HeldClaim };

/**
 * The request's claim was taken over before its answer was stored (it ran past its lease
 * and a retry claimed the key): its writes are rolled back, and the retry's stand.
 */
export class ClaimTakenOver extends Error {
  constructor(readonly claim: HeldClaim) {
    super(`Idempotency-Key ${claim.key}: the claim was taken over before the answer was stored`);
    this.name = 'ClaimTakenOver';
  }
}

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
    const operation = `${request.method} ${request.route}`;
    // The operation's digest, then the whole request's: an erasure keeps the first (erasedFingerprint).
    const requestDigest = await sha256Hex(`${operation}\n${canonicalJson(request.body)}`);
    const fingerprint = `${await operationDigest(request.method, request.route)}.${requestDigest}`;
    const record = {
      organization_id: organizationId,
      key,
      fingerprint,
      state: 'in_progress',
      locked_until: new Date(now.getTime() + this.policy.leaseMs).toISOString(),
      response_status: null,
      response_body: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.policy.ttlMs).toISOString(),
    } satisfies IdempotencyRecord;
    const claim = await this.store.idempotency.claim(record, now.toISOString());
    if (claim.outcome === 'claimed') return { kind: 'run', claim: record } satisfies IdempotentOutcome;
    const existing = claim.record;
    // A key whose request named a lead since erased replays to the same operation whatever
    // the body: a comparison would tell a guess of the erased data from a miss. A key stored
    // before fingerprints named the operation has the request's digest alone.
    const same =
      existing.fingerprint === fingerprint ||
      existing.fingerprint === erasedFingerprint(fingerprint) ||
      existing.fingerprint === requestDigest;
    if (!same) {
      throw new ApiError(
        409,
        'IDEMPOTENCY_KEY_REUSED',
        `Idempotency-Key ${key} was already used with a different request. Use a new key for a new request.`,
      );
    }
    if (existing.state === 'in_progress' || existing.response_status === null || existing.response_body === null) {
      const wait = Math.max(1, Math.ceil((Date.parse(existing.locked_until) - now.getTime()) / 1000));
      throw inProgress(key, Math.min(wait, 5));
    }
    return {
      kind: 'replay',
      answer: { status: existing.response_status, body: existing.response_body },
    } satisfies IdempotentOutcome;
  }

  /**
   * Runs the request holding `claim` and stores its answer in one transaction (Brandur
   * Leach's atomic phase, decision 0020): `work` does the request's writes on the
   * transaction's store and gives the answer, which is stored before the commit. Either both
   * commit or neither does, so a crash anywhere leaves the key without an answer and the
   * store without the writes: the retry that takes the key over runs on a clean slate.
   * Throws `ClaimTakenOver` (nothing committed) when the claim is no longer the request's.
   */
  async runAndStore(claim: HeldClaim, work: (tx: Store) => Promise<StoredAnswer>): Promise<StoredAnswer> {
    return this.store.transaction(async (tx) => {
      const answer = await work(tx);
      if (!(await tx.idempotency.complete(claim, answer.status, answer.body))) throw new ClaimTakenOver(claim);
      return answer;
    });
  }

  /**
   * Stores the answer of a request that wrote nothing (a client error: its transaction was
   * rolled back), for replay. Nothing to keep atomic with it: if this fails, the key's lease
   * runs out and a retry runs the request again, which is safe as it wrote nothing.
   */
  async storeRefusal(claim: HeldClaim, answer: StoredAnswer): Promise<void> {
    await this.store.idempotency.complete(claim, answer.status, answer.body);
  }

  /** Frees the key after a server-side failure (nothing committed), so that a retry runs the request again. */
  release(claim: HeldClaim): Promise<void> {
    return this.store.idempotency.release(claim);
  }
}

/** `409 IDEMPOTENCY_IN_PROGRESS`: another request holds the key; retry after `retryAfter` seconds. */
export function inProgress(key: string, retryAfter: number): ApiError {
  return new ApiError(
    409,
    'IDEMPOTENCY_IN_PROGRESS',
    `A request with Idempotency-Key ${key} is still being processed. Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/**
 * JSON with object keys sorted, so that key order does not change a fingerprint: each
 * object's keys in the order of an object built from its sorted entries (integer keys first,
 * ascending, as JavaScript orders an object's own keys; then the rest by code unit).
 *
 * `JSON.stringify` with a list of property names writes every object's properties in the
 * list's order, natively; the list is every key of the value, sorted once. That is a few
 * times faster on an import's 600 KB body than sorting each object's entries in a replacer,
 * which built a new object per lead. A key `__proto__` would be read through the prototype
 * on objects that lack it, so such a value takes the replacer's way.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const keys = new Set<string>();
  const pending: unknown[] = [value];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (Array.isArray(item)) {
      for (const element of item) if (element !== null && typeof element === 'object') pending.push(element);
      continue;
    }
    for (const key of Object.keys(item as object)) {
      keys.add(key);
      const child = (item as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') pending.push(child);
    }
  }
  if (keys.has('__proto__')) return canonicalJsonByReplacer(value);
  return JSON.stringify(value, [...keys].sort(ownKeyOrder));
}

/** Sorts each object's entries in a replacer: the order `canonicalJson` keeps. */
export function canonicalJsonByReplacer(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** An array index (`0` to 2^32 - 2, no leading zero): JavaScript lists these keys first, ascending. */
const isArrayIndex = (key: string) => /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;

function ownKeyOrder(a: string, b: string): number {
  const indexA = isArrayIndex(a);
  if (indexA !== isArrayIndex(b)) return indexA ? -1 : 1;
  if (indexA) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}
