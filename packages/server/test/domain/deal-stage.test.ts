/** When a deal's actual_close_date is set, kept or cleared by a stage move. */
import { describe, expect, it } from 'vitest';
import { type StageOutcome, closeDateAfterMove, closeDateOnCreate } from '../../src/domain/deal-stage.ts';

const at = '2026-11-24T15:30:00.000Z';
const earlier = '2026-11-10T09:00:00.000Z';

describe('closeDateAfterMove', () => {
  const cases: Array<[StageOutcome | null, StageOutcome | null, string | null, string | null]> = [
    ['open', 'won', null, at],
    ['open', 'lost', null, at],
    [null, 'won', null, at],
    ['won', 'lost', earlier, at],
    ['lost', 'won', earlier, at],
    ['won', 'won', earlier, earlier],
    ['lost', 'lost', earlier, earlier],
    ['won', 'open', earlier, null],
    ['lost', 'open', earlier, null],
    ['won', null, earlier, null],
    ['open', 'open', null, null],
  ];
  it.each(cases)('%s -> %s with %s gives %s', (from, to, current, expected) => {
    expect(closeDateAfterMove(from, to, current, at)).toBe(expected);
  });
});

describe('closeDateOnCreate', () => {
  it('closes a deal created in a won or lost stage, not in an open one or without a stage', () => {
    expect(closeDateOnCreate('won', at)).toBe(at);
    expect(closeDateOnCreate('lost', at)).toBe(at);
    expect(closeDateOnCreate('open', at)).toBeNull();
    expect(closeDateOnCreate(null, at)).toBeNull();
  });
});
