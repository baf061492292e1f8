/**
 * `npx ocs-mock [--port 4010] [--host 127.0.0.1] [--seed N]`: the standalone stateful mock.
 * Prints the base URL and the API key, then serves until SIGINT or SIGTERM.
 *
 * `--help` and `--version` exit 0. A mistake is one line on stderr and exit code 2; a failure
 * (the port is taken...) one line and exit code 1, with the stack under `--debug` or
 * `OCS_DEBUG=1`. `PORT` and `HOST` are read when the flags are not given.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startMockServer } from './start-mock-server.ts';

const usage = `Usage: ocs-mock [options]

The stateful mock of the Outreach Campaign Service API (the reference server's application,
seeded, in memory) on HTTP.

Options:
  --port <n>                     port, 0 to 65535 (default PORT, else 4010; 0 picks a free one)
  --host <address>               interface (default HOST, else 127.0.0.1)
  --seed <n>                     seed of the generated data (default 1)
  --rate-limit-per-endpoint <n>  requests per minute per endpoint (default 100)
  --rate-limit-total <n>         requests per minute in total (default 600)
  --allow-insecure-webhooks      accept http:// and loopback webhook URLs
  --json                         print the start-up line as JSON
  --debug                        print the stack of an internal error (or OCS_DEBUG=1)
  -h, --help                     this help
  --version                      the version

Control routes (outside /v1): POST /__ocs-mock/reset, GET /__ocs-mock/data,
POST /__ocs-mock/scenarios (see the @ocs/mock README).`;

/** A mistake in how it was called: one line, exit code 2. */
class UsageError extends Error {}
/** Something that did not work, said in one line: exit code 1. */
class Failure extends Error {}

function integer(label: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(parsed >= min && parsed <= max)) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `an integer from ${min} to ${max}`;
    throw new UsageError(`${label} must be ${range}, got '${value}'.`);
  }
  return parsed;
}

/** node:util's parseArgs errors (ERR_PARSE_ARGS_*), said in a line. */
function parseArgsProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}.`;
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value.`;
  const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value (write ${ambiguous[1]}=<value> for one starting with '-').`;
  const noValue = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message);
  if (noValue) return `${noValue[1]} takes no value.`;
  const positional = /^Unexpected argument '([^']+)'/.exec(message);
  if (positional) return `unexpected argument '${positional[1]}' (ocs-mock takes options only).`;
  return message.split('\n')[0] ?? message;
}

async function main(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        'rate-limit-per-endpoint': { type: 'string' },
        'rate-limit-total': { type: 'string' },
        'allow-insecure-webhooks': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        debug: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(parseArgsProblem(error));
  }

  if (values.help) {
    console.log(usage);
    return;
  }
  if (values.version) {
    console.log(packageVersion());
    return;
  }

  // A flag beats the environment; the environment is checked only when it is used.
  const port = integer('--port', values.port, 0, 65535) ?? integer('PORT', process.env.PORT, 0, 65535) ?? 4010;
  const host = values.host ?? (process.env.HOST || undefined) ?? '127.0.0.1';
  const seed = integer('--seed', values.seed, 0, Number.MAX_SAFE_INTEGER) ?? 1;
  const perEndpoint = integer(
    '--rate-limit-per-endpoint',
    values['rate-limit-per-endpoint'],
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const total = integer('--rate-limit-total', values['rate-limit-total'], 1, Number.MAX_SAFE_INTEGER);

  const server = await startMockServer({
    port,
    host,
    seed,
    rateLimits: { perEndpoint, total },
    allowInsecureWebhooks: values['allow-insecure-webhooks'],
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE')
      throw new Failure(`port ${port} on ${host} is in use; choose another with --port (0 picks a free one).`);
    if (error.code === 'EACCES') throw new Failure(`not allowed to listen on port ${port}; choose one above 1023.`);
    if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
      throw new Failure(`cannot listen on host '${host}' (${error.code}); choose another with --host.`);
    throw error;
  });

  if (values.json) {
    console.log(
      JSON.stringify({ url: server.url, apiKey: server.apiKey, organizationId: server.data.organization.id }),
    );
  } else {
    console.log(`OCS mock (stateful, in memory) at ${server.url}
API key: ${server.apiKey}
Try: curl -H 'Authorization: Bearer ${server.apiKey}' ${server.url}/campaigns
Reset: curl -X POST ${server.url.replace(/\/v1$/, '')}/__ocs-mock/reset`);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close().then(
        () => process.exit(0),
        (error: unknown) => fail(error),
      );
    });
  }
}

function debugging(): boolean {
  const flag = process.env.OCS_DEBUG;
  return process.argv.includes('--debug') || (flag !== undefined && flag !== '' && flag !== '0' && flag !== 'false');
}

function fail(error: unknown): never {
  if (error instanceof UsageError) {
    process.stderr.write(`ocs-mock: ${error.message} Run ocs-mock --help for usage.\n`);
    process.exit(2);
  }
  if (error instanceof Failure) {
    process.stderr.write(`ocs-mock: ${error.message}\n`);
    process.exit(1);
  }
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  process.stderr.write(
    `ocs-mock: internal error: ${message}${debugging() ? '' : ' (run with --debug or OCS_DEBUG=1 for the stack)'}\n`,
  );
  if (debugging() && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}

for (const event of ['uncaughtException', 'unhandledRejection'] as const) process.on(event, fail);

await main(process.argv.slice(2)).catch(fail);

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
