/**
 * `npm run fuzz`: the fuzz session at length on one store, with a figure per class and
 * every failure printed with the seed that replays it. Exits 1 when anything failed.
 *
 *   npm run fuzz -- [--seed N] [--requests N] [--store memory|pglite|postgres] [--max-seconds N]
 *
 * Defaults: a random seed (printed), 10,000 requests, the memory store, and a stop after
 * 900 seconds whatever is left. `postgres` uses DATABASE_URL, in a schema of its own that
 * is dropped at the end.
 */
import { parseArgs } from 'node:util';
import { memory, pglite, postgres } from '../support/stores.ts';
import { formatFailures, formatTable, summarizeFailures } from './report.ts';
import { runSession } from './session.ts';

const usage = 'usage: npm run fuzz -- [--seed N] [--requests N] [--store memory|pglite|postgres] [--max-seconds N]';

/** The options; a mistake in them is one line and exit 2, never parseArgs' stack trace. */
function options() {
  try {
    return parseArgs({
      options: {
        seed: { type: 'string' },
        requests: { type: 'string', default: '10000' },
        store: { type: 'string', default: 'memory' },
        'max-seconds': { type: 'string', default: '900' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

const values = options();
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const requests = Number(values.requests);
const maxSeconds = Number(values['max-seconds']);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(requests) || requests < 1 || !(maxSeconds > 0)) {
  console.error('--seed and --requests take integers, --max-seconds a positive number');
  process.exit(2);
}
const backend =
  values.store === 'memory'
    ? memory
    : values.store === 'pglite'
      ? pglite
      : values.store === 'postgres' && process.env.DATABASE_URL
        ? postgres(process.env.DATABASE_URL)
        : undefined;
if (!backend) {
  console.error('--store is memory, pglite, or postgres (which needs DATABASE_URL)');
  process.exit(2);
}

console.log(
  `fuzz: seed ${seed}, ${requests} requests, store ${backend.name} (replay: npm run fuzz -- --seed ${seed} --requests ${requests} --store ${backend.name})`,
);
const deadline = Date.now() + maxSeconds * 1000;
const store = await backend.open();
let failed: boolean;
try {
  const result = await runSession(store, {
    seed,
    requests,
    deadline,
    onProgress: (done) => console.log(`  ${done} sent`),
  });
  console.log(formatTable(result, backend.name));
  if (result.requests < requests) console.log(`stopped after ${maxSeconds} s: ${result.requests} of ${requests} sent`);
  if (result.failures.length > 0) {
    console.log(`\n${result.failures.length} failures, by operation, class and first failure:`);
    console.log(summarizeFailures(result));
    console.log(`\nEvery failure (seed ${seed}):`);
    console.log(formatFailures(result));
  } else {
    console.log('no failures');
  }
  failed = result.failures.length > 0;
} finally {
  await backend.close(store);
}
process.exit(failed ? 1 : 0);
