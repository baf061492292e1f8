/**
 * `npx ocs-mock [--port 4011] [--host 127.0.0.1] [--seed N] [--cors-origin <origin>]`: the
 * standalone stateful mock.
 * Prints the base URL and the API key, then serves until SIGINT or SIGTERM.
 *
 * `--help` and `--version` exit 0. A mistake is one line on stderr and exit code 2; a failure
 * (the port is taken...) one line and exit code 1, with the stack under `--debug` or
 * `OCS_DEBUG=1`. `PORT`, `HOST` and `OCS_CORS_ORIGIN` are read when the flags are not given.
 */
import { readFileSync } from 'node:fs';
import {
  corsOriginsOption,
  echoed,
  exitOnError,
  integerOption,
  listenProblem,
  parseCommandLine,
  UsageError,
} from '@ocs/server/cli-kit';
import { listenFlags } from './listen-flags.ts';
import { defaultMockPort, startMockServer } from './start-mock-server.ts';

const usage = `Usage: ocs-mock [options]

The stateful mock of the Outreach Campaign Service API (the reference server's application,
seeded, in memory) on HTTP. The reference server (ocs-server) defaults to port 4010, this
mock to 4011 and Prism (npm run mock) to 4012, so that they run side by side.

Options:
  --port <n>                     port, 0 to 65535 (default PORT, else 4011; 0 picks a free one)
  --host <address>               interface (default HOST, else 127.0.0.1)
  --seed <n>                     seed of the generated data (default 1)
  --rate-limit-per-endpoint <n>  requests per minute per endpoint (default 100; 0 answers
                                 every request 429, to test how a client takes it)
  --rate-limit-total <n>         requests per minute in total (default 600; 0 answers
                                 every request 429, to test how a client takes it)
  --allow-insecure-webhooks      accept http:// and loopback webhook URLs
  --cors-origin <origin>         only pages from this origin may call /v1 from a browser
                                 (repeat it, or separate with commas; or OCS_CORS_ORIGIN;
                                 default: any origin, *)
  --journal-limit <n>            requests kept in the journal (default 1000; 0 keeps none)
  --json                         print the start-up line as JSON
  --debug                        print the stack of an internal error (or OCS_DEBUG=1)
  -h, --help                     this help
  --version                      the version

Also: ocs-mock proxy --target <base-url>  a proxy that checks a deployment against the
document (ocs-mock proxy --help).

Control routes (outside /v1): POST /__ocs-mock/reset, GET /__ocs-mock/data,
POST /__ocs-mock/scenarios, GET /__ocs-mock/requests (see the @ocs/mock README).
The API reference: GET /docs, when redoc (an optional peer dependency) is installed.`;

/** Runs the command; true once the mock listens, false when it had nothing to serve (`--help`). */
async function main(argv: string[]): Promise<boolean> {
  // `ocs-mock proxy ...`: the contract-checking proxy, loaded only when asked for. `--debug`,
  // the tool's switch, may come before the command (`ocs-mock --debug proxy`), as with `ocs`.
  const command = argv.findIndex((arg) => arg !== '--debug');
  if (argv[command] === 'proxy') {
    const { proxy } = await import('../proxy/proxy-command.ts');
    await proxy([...argv.slice(0, command), ...argv.slice(command + 1)], packageVersion());
    return false;
  }
  const { values } = parseCommandLine(
    {
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        'rate-limit-per-endpoint': { type: 'string' },
        'rate-limit-total': { type: 'string' },
        'allow-insecure-webhooks': { type: 'boolean', default: false },
        'cors-origin': { type: 'string', multiple: true },
        'journal-limit': { type: 'string' },
        json: { type: 'boolean', default: false },
        debug: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    },
    'ocs-mock takes options only',
  );

  if (values.help) {
    console.log(usage);
    return false;
  }
  if (values.version) {
    console.log(packageVersion());
    return false;
  }

  // A flag beats the environment; the environment is checked only when it is used.
  const { port, host } = listenFlags(values, { port: defaultMockPort, variables: true });
  const seed = seedOption(values.seed) ?? 1;
  // 0 as createOcsMock takes it: every request answered 429.
  const perEndpoint = integerOption(
    '--rate-limit-per-endpoint',
    values['rate-limit-per-endpoint'],
    0,
    Number.MAX_SAFE_INTEGER,
  );
  const total = integerOption('--rate-limit-total', values['rate-limit-total'], 0, Number.MAX_SAFE_INTEGER);
  // Any origin when not given: the mock is for development. OCS_CORS_ORIGIN as ocs-server reads it.
  const corsOrigins = corsOriginsOption(values['cors-origin'], 'OCS_CORS_ORIGIN') ?? '*';
  const journalLimit = integerOption('--journal-limit', values['journal-limit'], 0, Number.MAX_SAFE_INTEGER);

  const server = await startMockServer({
    port,
    host,
    seed,
    rateLimits: { perEndpoint, total },
    allowInsecureWebhooks: values['allow-insecure-webhooks'],
    corsOrigins,
    journal: { limit: journalLimit },
  }).catch((error: unknown) => {
    throw listenProblem(error, port, host);
  });

  if (values.json) {
    console.log(
      JSON.stringify({ url: server.url, apiKey: server.apiKey, organizationId: server.data.organization.id }),
    );
  } else {
    console.log(`OCS mock (stateful, in memory) at ${server.url}
API key: ${server.apiKey}
Try: curl -H 'Authorization: Bearer ${server.apiKey}' ${server.url}/campaigns
Reset: curl -X POST ${server.url.replace(/\/v1$/, '')}/__ocs-mock/reset
CORS: ${corsOrigins === '*' ? 'pages on any origin may call /v1' : `pages on ${corsOrigins.join(', ')} may call /v1`}`);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close().then(
        () => process.exit(0),
        (error: unknown) => fail(error),
      );
    });
  }
  return true;
}

/** `ocs-mock`'s end on an error (cli-kit). */
const fail = (error: unknown): never => exitOnError('ocs-mock', 'ocs-mock --help', error);

/**
 * Runs `ocs-mock` with the process's arguments (bin/ocs-mock.cjs calls it): resolves true once
 * the mock listens, false after `--help`, `--version` or `proxy`; a mistake or failure exits.
 * The bin keeps V8's code cache of a start that listened (compile-cache.ts).
 */
export function startCli(): Promise<boolean> {
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) process.on(event, fail);
  return main(process.argv.slice(2)).catch(fail);
}

/**
 * The package's version, read from its package.json at run time: `../../package.json` from
 * both `src/server/` and `dist/server/`. Importing the JSON would bundle the whole manifest,
 * dependency names included, into the CLI.
 */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * `--seed`: any integer `createOcsMock({ seed })` takes, negative ones included, so that a
 * test's seed gives the same data on `ocs-mock` (the README's promise).
 */
function seedOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seed = /^-?\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(seed)) {
    throw new UsageError(
      `--seed must be an integer (negative ones too, as createOcsMock takes), got '${echoed(value)}'.`,
    );
  }
  return seed;
}
