/**
 * A wait longer than a timer can hold. `setTimeout` fires at once for a delay above 2^31-1 ms
 * (24.8 days) in every JavaScript runtime (Node warns `TimeoutOverflowWarning` and uses 1 ms),
 * so a `Retry-After` that long, which `timeoutMs` and `maxRetryAfterMs` of Infinity allow,
 * was retried at once. Waits are kept on the deadline's clock (src/clock.ts), which compares
 * epoch ms.
 *
 * Fake timers, which overflow as the runtimes do: the clock's 50 ms ticks are fired one at a
 * time, and the system time is moved to just before and to the end of the wait in between,
 * rather than ticking through 24.8 days of them.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createClient, getCampaign } from '../src/index.ts';
import { apiKey, baseUrl, errorBody } from './helpers/msw.ts';

const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
/** Whole seconds whose ms are above 2^31-1 (2,147,483,647). */
const retryAfterSeconds = 2_147_484;

afterEach(() => void vi.useRealTimers());

it('waits a Retry-After above 2^31-1 ms in full, with timeoutMs and maxRetryAfterMs of Infinity', async () => {
  vi.useFakeTimers({ now: 0, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  const sent: number[] = [];
  const fetch = async () => {
    sent.push(Date.now());
    return sent.length === 1
      ? Response.json(errorBody('RATE_LIMITED'), {
          status: 429,
          headers: { 'Retry-After': String(retryAfterSeconds) },
        })
      : Response.json({ success: true, campaign: { id: campaign_id, name: 'Q4' } });
  };
  const client = createClient({ apiKey, baseUrl, fetch, timeoutMs: Infinity, maxRetryAfterMs: Infinity });
  const call = getCampaign(client, { campaign_id });
  await vi.advanceTimersByTimeAsync(50);
  expect(sent).toEqual([0]);

  // The wait began with the answer, at 0 as the request.
  const wake = retryAfterSeconds * 1000;
  vi.setSystemTime(wake - 100);
  await vi.advanceTimersByTimeAsync(50); // one tick, 50 ms before the wait ends
  expect(sent).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(50); // the tick at its end
  expect(sent).toEqual([0, wake]);
  await expect(call).resolves.toMatchObject({ campaign: { id: campaign_id } });
  // One more tick with no call pending clears the clock's fake interval, so that no later
  // call of this process counts on a timer that no longer runs.
  await vi.advanceTimersByTimeAsync(50);
});
