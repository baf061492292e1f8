/** The retry schedule of `prospect_response`, decision by decision (section 6, NOTES.md). */
import { describe, expect, it } from 'vitest';
import { afterAttempt, refusalBeforeAttempt } from '../../src/delivery/schedule.ts';

const created = new Date('2026-11-02T09:00:00.000Z');
const plus = (minutes: number) => new Date(created.getTime() + minutes * 60_000);
const hours = 60;

describe('afterAttempt', () => {
  it.each([
    // attempt, started (minutes after the reply), any ok -> status, at (minutes after the reply)
    { attempt: 1, started: 0, anyOk: true, status: 'delivered', at: 0.5 },
    { attempt: 5, started: 60, anyOk: true, status: 'delivered', at: 60.5 },
    { attempt: 1, started: 0, anyOk: false, status: 'pending', at: 15 },
    { attempt: 2, started: 15, anyOk: false, status: 'pending', at: 30 },
    { attempt: 4, started: 45, anyOk: false, status: 'pending', at: 60 },
    // The fifth failure is the last.
    { attempt: 5, started: 60, anyOk: false, status: 'failed', at: 60.5 },
    // Late retries (a server that was down): 15 minutes after the attempt actually made...
    { attempt: 2, started: 47 * hours, anyOk: false, status: 'pending', at: 47 * hours + 15 },
    // ... as long as the next one stays within 48 hours (exactly 48 hours is within).
    { attempt: 2, started: 47 * hours + 45, anyOk: false, status: 'pending', at: 48 * hours },
    { attempt: 2, started: 47 * hours + 46, anyOk: false, status: 'failed', at: 47 * hours + 46.5 },
  ])(
    'attempt $attempt at +$started min, ok: $anyOk -> $status at +$at min',
    ({ attempt, started, anyOk, status, at }) => {
      const decision = afterAttempt({
        attempt,
        createdAt: created,
        startedAt: plus(started),
        finishedAt: plus(started + 0.5),
        anyOk,
      });
      expect(decision.status).toBe(status);
      expect(decision.at).toEqual(plus(at));
    },
  );

  it('says why a delivery failed', () => {
    const last = afterAttempt({
      attempt: 5,
      createdAt: created,
      startedAt: plus(60),
      finishedAt: plus(60),
      anyOk: false,
    });
    expect(last).toMatchObject({ status: 'failed', reason: 'every webhook failed on all 5 attempts' });
    const late = afterAttempt({
      attempt: 3,
      createdAt: created,
      startedAt: plus(48 * hours),
      finishedAt: plus(48 * hours),
      anyOk: false,
    });
    expect(late).toMatchObject({ status: 'failed', reason: expect.stringContaining('48 hours') });
  });
});

describe('refusalBeforeAttempt', () => {
  it.each([
    { attempt: 1, now: 0, refused: false },
    { attempt: 5, now: 60, refused: false },
    { attempt: 2, now: 48 * hours, refused: false },
    // A worker died during the fifth attempt: its take-over has no attempt left.
    { attempt: 6, now: 62, refused: true },
    // The clock (the sandbox's, or a server down for days) moved past the window.
    { attempt: 2, now: 48 * hours + 1, refused: true },
    { attempt: 1, now: 72 * hours, refused: true },
  ])('attempt $attempt at +$now min: refused $refused', ({ attempt, now, refused }) => {
    const reason = refusalBeforeAttempt(attempt, created, plus(now));
    expect(reason !== null).toBe(refused);
  });
});
