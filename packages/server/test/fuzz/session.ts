/**
 * One fuzz session: cases for a seed, sent in order on one store after the fixture phase,
 * tallied per class (cases, reached handlers, statuses) with every failure kept.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Store } from '../../src/store/types.ts';
import { generateCases } from './cases.ts';
import { type FuzzClass, fuzzClasses } from './model.ts';
import { createRunner, type Outcome } from './runner.ts';

export interface ClassTally {
  cases: number;
  sent: number;
  reachedHandler: number;
  statuses: Record<string, number>;
  serverErrors: number;
  contractViolations: number;
}

export interface SessionResult {
  seed: number;
  requests: number;
  durationMs: number;
  perClass: Record<FuzzClass, ClassTally>;
  operations: number;
  failures: Outcome[];
  unsendable: number;
}

export async function runSession(
  store: Store,
  options: {
    seed: number;
    requests: number;
    /** Send no further case after this time (ms since the epoch). */
    deadline?: number;
    /** Send no further case once aborted (Ctrl-C in `npm run fuzz`). */
    signal?: AbortSignal;
    onProgress?: (done: number) => void;
  },
): Promise<SessionResult> {
  const started = performance.now();
  const runner = await createRunner(store);
  const perClass = Object.fromEntries(
    fuzzClasses.map((cls) => [
      cls,
      { cases: 0, sent: 0, reachedHandler: 0, statuses: {}, serverErrors: 0, contractViolations: 0 },
    ]),
  ) as Record<FuzzClass, ClassTally>;
  const failures: Outcome[] = [];
  let unsendable = 0;
  let sent = 0;
  const operations = new Set<string>();
  for (const fuzzCase of generateCases(options.seed, options.requests)) {
    if (options.deadline !== undefined && Date.now() > options.deadline) break;
    // On the memory store a request is promises only: a turn of the event loop now and then
    // lets a signal's listener run.
    if (options.signal && sent % 100 === 0) await nextTurn();
    if (options.signal?.aborted) break;
    sent++;
    operations.add(fuzzCase.operationId);
    const tally = perClass[fuzzCase.class];
    tally.cases++;
    const outcome = await runner.send(fuzzCase);
    if (outcome.unsendable) {
      unsendable++;
    } else {
      tally.sent++;
      if (outcome.reachedHandler) tally.reachedHandler++;
      const status = String(outcome.status ?? 'none');
      tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      if (outcome.failures.some((f) => f.startsWith('unlisted 5'))) tally.serverErrors++;
      if (outcome.failures.some((f) => !f.startsWith('unlisted 5'))) tally.contractViolations++;
      if (outcome.failures.length > 0) failures.push(outcome);
    }
    if (sent % 1000 === 0) options.onProgress?.(sent);
  }
  return {
    seed: options.seed,
    requests: sent,
    durationMs: Math.round(performance.now() - started),
    perClass,
    operations: operations.size,
    failures,
    unsendable,
  };
}
