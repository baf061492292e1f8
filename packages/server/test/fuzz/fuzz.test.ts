/**
 * Issue 10, item 7: the schema-driven fuzz suite in `npm test`. A fixed seed (or FUZZ_SEED)
 * and a bounded number of requests (FUZZ_REQUESTS, default 1,500 per store) over every
 * operation, after a fixture phase that makes real resources; no 5xx the document does not
 * list for the case and every answer as documented, on each store. `npm run fuzz` runs the
 * same at length (test/fuzz/cli.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { availableBackends } from '../support/stores.ts';
import { formatFailures, formatTable, summarizeFailures } from './report.ts';
import { runSession } from './session.ts';

const seed = Number(process.env.FUZZ_SEED ?? 20261106);
const requests = Number(process.env.FUZZ_REQUESTS ?? 1500);

for (const backend of availableBackends()) {
  describe(`fuzz [${backend.name}]`, () => {
    let store: Store | undefined;
    beforeAll(async () => {
      store = await backend.open();
    }, 60_000);
    afterAll(async () => {
      if (store) await backend.close(store);
    });

    it(`sends ${requests} generated and mutated requests (seed ${seed}): no unlisted 5xx, every answer as documented`, async () => {
      const result = await runSession(store as Store, { seed, requests });
      console.log(formatTable(result, backend.name));
      const reached = Object.values(result.perClass).reduce((sum, t) => sum + t.reachedHandler, 0);
      expect(result.operations).toBe(56);
      // Most requests must get past validation into a handler, or the suite attacks only the validator.
      expect(reached).toBeGreaterThan(requests * 0.4);
      if (result.failures.length > 0) {
        console.log(`${summarizeFailures(result)}\n\n${formatFailures(result, 20)}`);
      }
      expect(
        result.failures.map((f) => `${f.case.operationId} [${f.case.class}] ${f.status}: ${f.failures.join('; ')}`),
        `replay: npm run fuzz -- --seed ${seed} --requests ${requests} --store ${backend.name}`,
      ).toEqual([]);
    }, 120_000);
  });
}
