/** What the `ocs` tests read in `ocs listen`'s lines. */
import { expect } from 'vitest';

/**
 * A delivery line's time (its first field) is an ISO 8601 instant in UTC, taken when the
 * receiver answered: after `since`, and not later than now.
 */
export function expectDeliveryTime(line: string, since: number): void {
  const [time = ''] = line.split('  ');
  expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const at = Date.parse(time);
  expect(at).toBeGreaterThanOrEqual(since);
  expect(at).toBeLessThanOrEqual(Date.now());
}
