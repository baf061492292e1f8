/**
 * The service's notion of now. The system clock by default; the sandbox clock (issue 5) can
 * be advanced so that weeks of a campaign play out in a test in milliseconds.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The clock that budgets follow: the real one under a sandbox clock. Advancing the sandbox
 * clock moves the campaign engine and deliveries, never a rate-limit window, an idempotency
 * key's lease or expiry, an API key's expiry, or a delivery claim's lease (decision 0002).
 */
export function wallClockOf(clock: Clock): Clock {
  return clock instanceof SandboxClock ? clock.real : clock;
}

/** ISO 8601 with a `+00:00` offset, the form the API answers (section 2). */
export function toApiTime(iso: string): string;
export function toApiTime(iso: string | null): string | null;
export function toApiTime(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/Z$/, '+00:00');
}

/**
 * The sandbox clock (sandbox mode): real time plus an offset that only grows. Advancing it
 * is how a test plays a campaign's weeks out in milliseconds; the engine runs what comes due
 * on the way (`engine/advance.ts`). One per server: every organization shares it.
 */
export class SandboxClock implements Clock {
  #offsetMs = 0;

  /** Real time: what budgets (rate limits, idempotency keys, API key expiry) and delivery claim leases are counted on. */
  readonly real: Clock;

  constructor(real: Clock = systemClock) {
    this.real = real;
  }

  now(): Date {
    return new Date(this.real.now().getTime() + this.#offsetMs);
  }

  /** How far ahead of real time this clock runs. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Moves the clock to `instant`; a time before the current one leaves it where it is. */
  advanceTo(instant: Date): void {
    const ahead = instant.getTime() - this.real.now().getTime();
    if (ahead > this.#offsetMs) this.#offsetMs = ahead;
  }

  /** Runs at least `offsetMs` ahead of real time (the offset another server saved). */
  catchUp(offsetMs: number): void {
    if (offsetMs > this.#offsetMs) this.#offsetMs = offsetMs;
  }

  /** Back to real time (the mock's `reset()`). */
  reset(): void {
    this.#offsetMs = 0;
  }
}
