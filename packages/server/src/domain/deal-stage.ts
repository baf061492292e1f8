/**
 * What a deal's stage decides: its pipeline, its default probability, and its
 * `actual_close_date`, which the service alone sets when the deal enters a `won` or `lost`
 * stage and clears when it goes back to an open stage (or to no stage).
 */

export type StageOutcome = 'open' | 'won' | 'lost';

/**
 * `actual_close_date` after a move from a stage with outcome `from` to one with outcome
 * `to` (null: no stage). Entering a closed outcome from anything else (open, the other
 * outcome, no stage) closes the deal at `at`; staying within the same closed outcome keeps
 * the date it closed; open or no stage clears it.
 *
 * @example
 * closeDateAfterMove('open', 'won', null, '2026-11-24T15:30:00.000Z'); // '2026-11-24T15:30:00.000Z'
 * closeDateAfterMove('won', 'open', '2026-11-24T15:30:00.000Z', at); // null
 */
export function closeDateAfterMove(
  from: StageOutcome | null,
  to: StageOutcome | null,
  current: string | null,
  at: string,
): string | null {
  if (to === null || to === 'open') return null;
  return from === to ? current : at;
}

/** `actual_close_date` of a deal created in a stage with outcome `outcome` (null: no stage). */
export function closeDateOnCreate(outcome: StageOutcome | null, at: string): string | null {
  return closeDateAfterMove(null, outcome, null, at);
}
