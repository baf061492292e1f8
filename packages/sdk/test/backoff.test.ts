/**
 * The wait between attempts when the service names none: exponential backoff with full
 * jitter (a random wait in [0, min(0.5 s * 2^attempt, 8 s))), so that clients retrying the
 * same outage spread out instead of arriving together. The other retry tests pin
 * `Math.random` to 0 to run fast; these check the curve itself.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getCampaign } from '../src/index.ts';
import { backoff } from '../src/retry.ts';
import { clientOf, json, startServer } from './helpers/http.ts';

const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';

afterEach(() => void vi.restoreAllMocks());

describe('backoff', () => {
  it('doubles its ceiling per attempt from 0.5 s and stops at 8 s', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    expect([0, 1, 2, 3, 4, 5, 9].map((attempt) => Math.round(backoff(attempt)))).toEqual([
      500, 999, 1998, 3996, 7992, 7992, 7992,
    ]);
  });

  it('draws each wait anywhere in [0, ceiling): full jitter, not a fixed step', () => {
    const waits = Array.from({ length: 1000 }, () => backoff(3));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThan(4000);
    // With 1,000 uniform draws, missing either tenth of the range has odds of about 1e-46.
    expect(Math.min(...waits)).toBeLessThan(400);
    expect(Math.max(...waits)).toBeGreaterThan(3600);
    expect(new Set(waits.map(Math.round)).size).toBeGreaterThan(500);
  });

  it('is what the client waits between attempts when the answer names no wait', async () => {
    let answered = 0;
    const server = await startServer((_request, response) =>
      ++answered <= 4
        ? json(response, 503, { success: false, error: 'UPSTREAM_TIMEOUT', message: 'Try again.' })
        : json(response, 200, { success: true, campaign: { id: campaign_id } }),
    );
    const lines: string[] = [];
    const logger = { warn: (line: string) => lines.push(line), debug: (line: string) => lines.push(line) };
    vi.spyOn(Math, 'random').mockReturnValue(0.01);
    await getCampaign(clientOf(server, { debug: true, logger, maxRetries: 4 }), { campaign_id });
    expect(answered).toBe(5);
    expect(lines.map((line) => /retry in (\d+) ms$/.exec(line)?.[1])).toEqual(['5', '10', '20', '40', undefined]);
  });
});
