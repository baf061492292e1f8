/**
 * `npm run fuzz`: the fuzz session at length on one store, with a figure per class and
 * every failure printed with the seed that replays it. Exits 1 when anything failed.
 *
 *   npm run fuzz -- [--seed N] [--requests N] [--store memory|pglite|postgres] [--max-seconds N]
 *
 * Defaults: a random seed (printed), 10,000 requests, the memory store, and a stop after
 * 900 seconds whatever is left. `postgres` uses DATABASE_URL, in a schema of its own that
 * is dropped at the end.
 *
 * A mistake in the options is one line and exit code 2 (an empty `--seed=` is no seed 0).
 * Ctrl-C (SIGINT) or SIGTERM stops the session after the request under way: what was sent is
 * reported, the store closed (the PostgreSQL schema dropped), and the exit code is 130 or
 * 143, as a shell reports a process that signal ended. Further signals change nothing: under
 * `npm run fuzz`, npm and tsx pass a Ctrl-C on, so one Ctrl-C arrives more than once.
 */
import { constants } from 'node:os';
import type { Store } from '../../src/store/types.ts';
import { environment, firstLine, integerOption, parseCommandLine, UsageError } from '../../src/node/cli-kit.ts';

const usage = 'usage: npm run fuzz -- [--seed N] [--requests N] [--store memory|pglite|postgres] [--max-seconds N]';
const seeHelp = 'Run npm run fuzz -- --help for usage.';

const storeNames = ['memory', 'pglite', 'postgres'] as const;
/** fast-check reads 32 bits of a seed: a larger one would replay the cases of a smaller one. */
const maxSeed = 2 ** 32 - 1;

interface FuzzOptions {
  seed: number;
  requests: number;
  store: (typeof storeNames)[number];
  maxSeconds: number;
  databaseUrl: string | undefined;
}

/** The options of `argv`, or 'help'; a mistake in them is a `UsageError`. */
function fuzzOptions(argv: string[]): FuzzOptions | 'help' {
  const { values } = parseCommandLine(
    {
      args: argv,
      options: {
        seed: { type: 'string' },
        requests: { type: 'string' },
        store: { type: 'string' },
        'max-seconds': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'the fuzzer takes options only',
  );
  if (values.help) return 'help';
  const seed = integerOption('--seed', values.seed, 0, maxSeed) ?? Math.floor(Math.random() * 2 ** 31);
  const requests = integerOption('--requests', values.requests, 1, Number.MAX_SAFE_INTEGER) ?? 10_000;
  const maxSeconds = integerOption('--max-seconds', values['max-seconds'], 1, Number.MAX_SAFE_INTEGER) ?? 900;
  const store = values.store ?? 'memory';
  if (!(storeNames as readonly string[]).includes(store))
    throw new UsageError(`--store must be memory, pglite or postgres, got '${store}'.`);
  const databaseUrl = environment('DATABASE_URL');
  if (store === 'postgres' && databaseUrl === undefined)
    throw new UsageError('--store postgres needs DATABASE_URL (postgres://user@host:5432/database).');
  return { seed, requests, store: store as FuzzOptions['store'], maxSeconds, databaseUrl };
}

const exitCodeOf = (signal: NodeJS.Signals) => 128 + constants.signals[signal];

async function main(argv: string[]): Promise<number> {
  const options = fuzzOptions(argv);
  if (options === 'help') {
    console.log(usage);
    return 0;
  }
  const { seed, requests, maxSeconds } = options;
  // Loaded once the options are known to be good: a mistake is said at once.
  const [{ memory, pglite, postgres }, { formatFailures, formatTable, summarizeFailures }, { runSession }] =
    await Promise.all([import('../support/stores.ts'), import('./report.ts'), import('./session.ts')]);
  const backend =
    options.store === 'memory' ? memory : options.store === 'pglite' ? pglite : postgres(options.databaseUrl ?? '');

  // Listening before the store opens: a signal meanwhile stops the session before it starts,
  // and the store is still closed (its schema dropped) once open.
  const stop = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  let store: Store | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppedBy !== undefined) return;
    stoppedBy = signal;
    stop.abort();
    const where = store && backend.where?.(store);
    console.error(`fuzz: ${signal}: stopping after the request under way${where ? `, then dropping ${where}` : ''}.`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  console.log(
    `fuzz: seed ${seed}, ${requests} requests, store ${backend.name} (replay: npm run fuzz -- --seed ${seed} --requests ${requests} --store ${backend.name})`,
  );
  const deadline = Date.now() + maxSeconds * 1000;
  try {
    store = await backend.open();
  } catch (error) {
    // The backend leaves nothing behind when it fails to open (support/stores.ts).
    console.error(`fuzz: cannot open the ${backend.name} store: ${firstLine(error)}`);
    return stoppedBy ? exitCodeOf(stoppedBy) : 1;
  }
  const where = backend.where?.(store);
  if (where) console.log(`fuzz: in ${where}, dropped at the end`);
  let failed = false;
  try {
    if (!stop.signal.aborted) {
      const result = await runSession(store, {
        seed,
        requests,
        deadline,
        signal: stop.signal,
        onProgress: (done) => console.log(`  ${done} sent`),
      });
      console.log(formatTable(result, backend.name));
      if (stoppedBy) console.log(`stopped by ${stoppedBy}: ${result.requests} of ${requests} sent`);
      else if (result.requests < requests)
        console.log(`stopped after ${maxSeconds} s: ${result.requests} of ${requests} sent`);
      if (result.failures.length > 0) {
        console.log(`\n${result.failures.length} failures, by operation, class and first failure:`);
        console.log(summarizeFailures(result));
        console.log(`\nEvery failure (seed ${seed}):`);
        console.log(formatFailures(result));
      } else {
        console.log('no failures');
      }
      failed = result.failures.length > 0;
    }
  } finally {
    await backend.close(store);
  }
  if (stoppedBy) return exitCodeOf(stoppedBy);
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`fuzz: ${error.message} ${seeHelp}`);
      process.exit(2);
    }
    // The fuzzer's own failure: its stack is what to look at.
    console.error(error);
    process.exit(1);
  },
);
