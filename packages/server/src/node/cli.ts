/**
 * `ocs-server`: run and administer the reference server. Every command accepts `--json` for
 * machine-readable output, and `--data-dir` / `--database-url` to choose the store.
 *
 *   ocs-server serve [--port 4010] [--host 127.0.0.1] [--no-sandbox] [--allow-insecure-webhooks]
 *                    [--cors-origin <origin>]...
 *   ocs-server migrate
 *   ocs-server org create --name <name> [--owner-email <email>] [--owner-name <name>]
 *   ocs-server org list
 *   ocs-server org deactivate <organization-id>
 *   ocs-server key create --org <organization-id> [--scopes a:read,b:write] [--expires-at <iso>] [--name <name>]
 *   ocs-server key revoke <key-id>
 *   ocs-server seed
 *   ocs-server deliveries list --campaign <campaign-id> [--limit 20]
 *
 * One process opens a PGlite directory at a time (docs/decisions/0004-one-writer-per-data-dir.md):
 * `serve` holds it and answers the admin commands of other `ocs-server` processes over its
 * admin channel, so they work while it runs. Mistakes are one line on stderr and exit code 2;
 * failures one line and exit code 1, with the stack under `--debug` or `OCS_DEBUG=1`.
 */
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import {
  CliFailure,
  corsOriginsOption,
  debugging,
  environment,
  firstLine,
  integerOption,
  listenHost,
  listenProblem,
  parseCommandLine,
  UsageError,
} from './cli-kit.ts';
import { echoed, escapedText } from './echoed-value.ts';
import { environmentProblem } from './environment-problems.ts';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import packageJson from '../../package.json' with { type: 'json' };
import {
  adminSocketPath,
  AdminChannelUnavailable,
  askAdminChannel,
  discardAdminSocketPath,
  listenAdminChannel,
  type AdminChannel,
} from './admin-channel.ts';
import {
  type AdminCommand,
  AdminCommandError,
  adminErrorKinds,
  adminJson,
  type AdminOutput,
  checkAdminCommand,
  deliveriesLimit,
  parseAdminCommand,
  runAdminCommand,
} from './admin-commands.ts';
import {
  acquireDataDirLock,
  DataDirHeldError,
  type DataDirLock,
  describeHolder,
  type LockHolder,
  lockPath,
  recoverByHand,
} from './data-dir-lock.ts';
import { type DemoOrganization, ensureDemoOrganization, type StoreHint } from './first-start.ts';
import { openStore } from './open-store.ts';
import { describeLocation, type StoreLocation, storeLocation } from './options.ts';
import { defaultShutdownGraceMs, type RunningServer, serve } from './serve.ts';
import { listenForStop } from './stop-signals.ts';
import { createNodeLogger, logLevelFrom } from './logger.ts';
import type { LogEntry, Logger } from '../http/logger.ts';
import type { SqlStore } from '../store/sql/index.ts';
import { DamagedDataDirError } from '../store/sql/pglite-damage.ts';
import { NotADataDirError } from '../store/sql/pglite-data-dir.ts';
import { makeDataDir } from './data-dir-access.ts';

const usage = `Usage: ocs-server <command> [options]

Commands:
  serve                 serve the API (default port 4010 on 127.0.0.1)
  migrate               apply pending database migrations
  org create            create an organization (--name, --owner-email, --owner-name)
  org list              list organizations
  org deactivate <id>   deactivate an organization (its keys answer 403 ORGANIZATION_DEACTIVATED)
  key create            create an API key (--org, --scopes, --expires-at, --name); shown once
  key revoke <id>       revoke an API key (it answers 401 UNAUTHORIZED from then on)
  seed                  create a demo organization with accounts and a pipeline
  deliveries list       a campaign's prospect_response deliveries and every attempt
                        (--campaign, --limit 1-500, default 20; oldest first), for the operator

While \`serve\` runs on a PGlite directory, the other commands on that directory are run by
the server itself (over a socket in the directory), so they take effect at once.

Options:
  --data-dir <dir>      PGlite data directory (default .data/pglite, or OCS_DATA_DIR)
  --database-url <url>  use a PostgreSQL server instead (or DATABASE_URL)
  --json                print machine-readable JSON (serve: one line once listening, with
                        the URL and a first start's demo key)
  --port <n>, --host <address>
                        serve: where to listen (or PORT, HOST; default 4010, 127.0.0.1; port 0 picks one)
  --no-sandbox          serve: turn sandbox mode off
  --allow-insecure-webhooks  serve: allow http:// and loopback webhook receivers (development)
  --cors-origin <origin>
                        serve: let pages from this origin call /v1 in a browser (repeat it, or
                        separate with commas; or OCS_CORS_ORIGIN; * alone for any). Default: none
  --rate-limit-per-endpoint <n>, --rate-limit-total <n>
                        serve: per-key limits per minute (default 100 and 600, as section 8 says)
  --debug               print the stack of an internal error (or OCS_DEBUG=1)
  -h, --help            this help
  --version             the version

Environment:
  LOG_LEVEL             serve: trace, debug, info (default), warn, error, fatal or silent.
                        The log is JSON lines on standard output, readable lines on a terminal
  OCS_SHUTDOWN_GRACE_MS serve: how long requests and webhook deliveries under way may take
                        to finish after Ctrl-C or SIGTERM (default 5000); a delivery cut
                        short is made again at the next start. A second Ctrl-C stops at once
  OCS_ADMIN_TIMEOUT_MS  how long a command waits for the server holding the data directory
                        to run it (default 10000); past it, nothing is done
`;

const seeHelp = 'Run ocs-server --help for usage.';

const globalOptions = ['json', 'data-dir', 'database-url', 'debug', 'help', 'version'];
/** The options of each command besides the global ones. */
const commandOptions: Record<string, string[]> = {
  serve: [
    'port',
    'host',
    'no-sandbox',
    'allow-insecure-webhooks',
    'rate-limit-per-endpoint',
    'rate-limit-total',
    'cors-origin',
  ],
  migrate: [],
  seed: [],
  'org create': ['name', 'owner-email', 'owner-name'],
  'org list': [],
  'org deactivate': [],
  'key create': ['org', 'scopes', 'expires-at', 'name'],
  'key revoke': [],
  'deliveries list': ['campaign', 'limit'],
};
/** Commands taking one argument after their name. */
const argumentOf: Record<string, string> = {
  'org deactivate': '<organization-id>',
  'key revoke': '<key-id>',
};

/** How long a CLI waits for a running server to answer an admin command. */
function adminTimeoutMs(): number {
  // A value that is no whole number is a mistake, said in one line (it was the default, unsaid).
  const value = integerOption('OCS_ADMIN_TIMEOUT_MS', environment('OCS_ADMIN_TIMEOUT_MS'), 1, Number.MAX_SAFE_INTEGER);
  // The answer is waited for up to 5 s longer, on one timer.
  return value === undefined ? 10_000 : Math.min(value, longestTimerMs - 5_000);
}

/**
 * The longest delay `setTimeout` keeps (about 24.8 days); a longer one fires at once, with a
 * warning, so a waiting time set beyond it in the environment is this long instead.
 */
const longestTimerMs = 2 ** 31 - 1;

/** Every option; `--cors-origin` alone may be given more than once (parseCommandLine refuses other repeats). */
const options = {
  json: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'no-sandbox': { type: 'boolean', default: false },
  'allow-insecure-webhooks': { type: 'boolean', default: false },
  'rate-limit-per-endpoint': { type: 'string' },
  'rate-limit-total': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  name: { type: 'string' },
  'owner-email': { type: 'string' },
  'owner-name': { type: 'string' },
  org: { type: 'string' },
  scopes: { type: 'string' },
  'expires-at': { type: 'string' },
  campaign: { type: 'string' },
  limit: { type: 'string' },
  debug: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine({ args: argv, allowPositionals: true, options });
  const out = (output: AdminOutput) =>
    process.stdout.write(values.json ? `${adminJson(output.json)}\n` : `${output.text}\n`);
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`${packageJson.version}\n`);
    return 0;
  }

  // Numbers first, whatever the command: `--port abc` is said to be wrong as such.
  const numbers = {
    port: integerOption('--port', values.port, 0, 65535),
    perEndpoint: integerOption(
      '--rate-limit-per-endpoint',
      values['rate-limit-per-endpoint'],
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    total: integerOption('--rate-limit-total', values['rate-limit-total'], 1, Number.MAX_SAFE_INTEGER),
    limit: integerOption('--limit', values.limit, deliveriesLimit.min, deliveriesLimit.max),
  };

  const [command, sub] = positionals;
  if (!command) throw new UsageError('which command? serve, migrate, org, key, seed or deliveries.');
  const name =
    command === 'org' || command === 'key' || command === 'deliveries' ? `${command} ${sub ?? ''}`.trim() : command;
  // Own names only: `ocs-server constructor` found Object.prototype's member and went on.
  const allowed = Object.hasOwn(commandOptions, name) ? commandOptions[name] : undefined;
  if (!allowed) {
    throw new UsageError(
      sub === undefined && (command === 'org' || command === 'key' || command === 'deliveries')
        ? `${command} needs a subcommand: ${Object.keys(commandOptions)
            .filter((known) => known.startsWith(`${command} `))
            .join(', ')}.`
        : `unknown command '${echoed(positionals.join(' '))}'.`,
    );
  }
  // Output cut short by its reader (`| head -1`) is not an error: stop quietly, as Unix tools
  // do. Not for serve, whose standard output is its log, and which must close its store.
  if (name !== 'serve') quietOnClosedOutput();
  const words = name.split(' ').length;
  const rest = positionals.slice(words);
  const wanted = argumentOf[name] ? 1 : 0;
  if (rest.length < wanted)
    throw new UsageError(`${name} needs ${argumentOf[name]}: ocs-server ${name} ${argumentOf[name]}.`);
  if (rest.length > wanted) throw new UsageError(`${name} takes no argument '${echoed(rest[wanted] as string)}'.`);
  for (const option of Object.keys(values)) {
    const given = values[option as keyof typeof values];
    if (given === undefined || given === false || globalOptions.includes(option) || allowed.includes(option)) continue;
    throw new UsageError(`--${option} does not apply to ${name}.`);
  }

  // An empty value would mean the working directory (a database written among its files) or,
  // with DATABASE_URL set, PostgreSQL instead: neither is what was asked.
  for (const flag of ['data-dir', 'database-url'] as const) {
    if (values[flag]?.trim() === '')
      throw new UsageError(
        `--${flag} needs a value (${flag === 'data-dir' ? 'a directory' : 'postgres://user@host:5432/database'}).`,
      );
  }
  if (values['database-url'] !== undefined) checkDatabaseUrl('--database-url', values['database-url']);
  else if (values['data-dir'] === undefined && process.env.DATABASE_URL)
    checkDatabaseUrl('DATABASE_URL', process.env.DATABASE_URL);
  const location = storeLocation(values);
  if (name === 'serve') return serveCommand(values, numbers, location);

  let adminCommand: AdminCommand;
  switch (name) {
    case 'org create':
      if (values.name === undefined) throw new UsageError('org create needs --name <name>.');
      adminCommand = {
        command: name,
        // Once per run: sent again after a lost answer, the command finds what it made (admin-commands.ts).
        id: randomUUID(),
        name: values.name,
        ...(values['owner-email'] !== undefined ? { ownerEmail: values['owner-email'] } : {}),
        ...(values['owner-name'] !== undefined ? { ownerName: values['owner-name'] } : {}),
      };
      break;
    case 'org deactivate':
      adminCommand = { command: name, organizationId: rest[0] ?? '' };
      break;
    case 'key create':
      if (values.org === undefined) throw new UsageError('key create needs --org <organization-id>.');
      adminCommand = {
        command: name,
        id: randomUUID(),
        organizationId: values.org,
        // Every item, empty ones too (`leads:read,,crm:read`), which checkAdminCommand refuses.
        ...(values.scopes !== undefined ? { scopes: values.scopes.split(',').map((scope) => scope.trim()) } : {}),
        ...(values['expires-at'] !== undefined ? { expiresAt: values['expires-at'] } : {}),
        ...(values.name !== undefined ? { name: values.name } : {}),
      };
      break;
    case 'key revoke':
      adminCommand = { command: name, keyId: rest[0] ?? '' };
      break;
    case 'deliveries list':
      if (values.campaign === undefined) throw new UsageError('deliveries list needs --campaign <campaign-id>.');
      adminCommand = {
        command: name,
        campaignId: values.campaign,
        limit: numbers.limit ?? deliveriesLimit.default,
      };
      break;
    case 'seed':
      adminCommand = { command: name, id: randomUUID() };
      break;
    default:
      adminCommand = { command: name as 'migrate' | 'org list' };
  }
  try {
    out(await administer(checkAdminCommand(adminCommand), location));
  } catch (error) {
    if (error instanceof AdminCommandError && error.kind === 'usage') throw new UsageError(error.message);
    if (error instanceof AdminCommandError) throw new CliFailure(error.message);
    throw error;
  }
  return 0;
}

/**
 * Runs an admin command: on PostgreSQL, on a store of its own; on PGlite, on a store of its own
 * under the directory's lock, or, when a server holds the directory, by that server over its
 * admin channel. Refuses (CliFailure) when the holder does not answer.
 */
async function administer(command: AdminCommand, location: StoreLocation): Promise<AdminOutput> {
  const skipMigrations = command.command === 'migrate';
  if (location.databaseUrl) return runOn(await openStore(location, { skipMigrations }), command);
  // Read before anything is done, whether or not a server turns out to hold the directory.
  const timeoutMs = adminTimeoutMs();
  makeDataDir(location.dataDir);
  for (let round = 0; ; round++) {
    const acquired = await acquireDataDirLock(location.dataDir, {
      command: `ocs-server ${command.command}`,
      waitMs: 10_000,
    });
    if ('lock' in acquired) {
      const { lock } = acquired;
      try {
        return await runOn(await openStore(location, { skipMigrations, lock }), command);
      } finally {
        lock.release();
      }
    }
    const { holder, undecided } = acquired;
    if (!holder.socket)
      throw new CliFailure(
        `${location.dataDir} is in use by ${describeHolder(holder)}; ` +
          (undecided ? recoverByHand(location.dataDir) : 'run the command again when it has finished.'),
      );
    // The server starts nothing after `notAfter`; the answer to a command it started in time
    // is waited for a little longer, so that a refusal always means nothing was done.
    const request: AdminRequest = { run: command, notAfter: Date.now() + timeoutMs };
    try {
      return decodeAnswer(
        await askAdminChannel(holder.socket, request, { timeoutMs: timeoutMs + Math.min(timeoutMs, 5000) }),
      );
    } catch (error) {
      if (!(error instanceof AdminChannelUnavailable)) throw error;
      // A server starting (not listening yet) or stopping (its lock about to go): look again.
      if (error.reason !== 'timeout' && round < 10) {
        await sleep(200);
        continue;
      }
      throw new CliFailure(notAnswering(location.dataDir, holder, error, undecided === true));
    }
  }
}

async function runOn(store: SqlStore, command: AdminCommand): Promise<AdminOutput> {
  try {
    return await runAdminCommand(store, command);
  } finally {
    await store.close();
  }
}

function notAnswering(dataDir: string, holder: LockHolder, error: AdminChannelUnavailable, undecided: boolean): string {
  const said = `nothing was done: ${dataDir} is held by ${describeHolder(holder)}, and ${error.message}. `;
  if (undecided) return `${said}${recoverByHand(dataDir)}`;
  return (
    said +
    `If it is stuck, stop it (kill ${holder.pid}) and run the command again; ` +
    `if pid ${holder.pid} is no ocs-server, delete ${lockPath(dataDir)}.`
  );
}

/** The server's answer to an admin command, as the CLI's own result or error. */
function decodeAnswer(answer: unknown): AdminOutput {
  const value = (answer ?? {}) as { ok?: unknown; text?: unknown; json?: unknown; kind?: unknown; message?: unknown };
  if (value.ok === true && typeof value.text === 'string') return { text: value.text, json: value.json };
  const message = typeof value.message === 'string' ? value.message : 'the server gave no reason';
  const kind = adminErrorKinds.find((known) => known === value.kind);
  if (kind !== undefined) throw new AdminCommandError(message, kind);
  throw new CliFailure(`the running server could not do it: ${message}`);
}

/** A command sent over the admin channel, not to be started after `notAfter` (ms since the epoch). */
interface AdminRequest {
  run: AdminCommand;
  notAfter: number;
}

/** Admin commands run for another process are logged with the requests (what, not the key). */
let adminLogger: Logger | undefined;
const adminLog = { log: (entry: LogEntry) => (adminLogger ??= createNodeLogger()).log(entry) };

/** What the admin channel of a serving process answers. */
async function answerAdminRequest(store: Promise<SqlStore>, request: unknown, after: () => void): Promise<unknown> {
  try {
    const { run, notAfter } = (request ?? {}) as Partial<AdminRequest>;
    const command = parseAdminCommand(run);
    const ready = await store;
    if (typeof notAfter !== 'number' || Date.now() > notAfter)
      return { ok: false, kind: 'late', message: 'the command arrived after its caller gave up; nothing was done' };
    const output = await runAdminCommand(ready, command);
    after();
    adminLog.log({ level: 'info', message: 'admin command', command: command.command, ...output.logged });
    return { ok: true, ...output };
  } catch (error) {
    if (error instanceof AdminCommandError) return { ok: false, kind: error.kind, message: error.message };
    return { ok: false, kind: 'internal', message: firstLine(error) };
  }
}

type Values = ReturnType<
  typeof parseCommandLine<{ args: string[]; allowPositionals: true; options: typeof options }>
>['values'];

async function serveCommand(
  values: Values,
  numbers: { port?: number; perEndpoint?: number; total?: number },
  location: StoreLocation,
): Promise<number> {
  const host = listenHost(values.host);
  const port = numbers.port ?? integerOption('PORT', environment('PORT'), 0, 65535) ?? 4010;
  const { perEndpoint, total } = numbers;
  const corsOrigins = corsOriginsOption(values['cors-origin'], 'OCS_CORS_ORIGIN');
  logLevelFrom(process.env.LOG_LEVEL); // an unknown level is said before anything starts
  const graceMs = shutdownGraceMs(); // so is a grace that is no number, not at the first stop
  // A port in use is said at once: before the store opens (seconds on PGlite), and before a
  // first start prints the demo key of a server that would not start.
  await ensurePortFree(port, host);

  let lock: DataDirLock | undefined;
  let channel: AdminChannel | undefined;
  let store: SqlStore | undefined;
  let running: RunningServer | undefined;
  // Listening from the start: a signal while the store opens stops the server once it is up,
  // rather than killing the process with the store half open.
  const stopSignal = listenForStop();
  // A second signal while PostgreSQL is being connected to (it may not answer for
  // connectTimeoutMs): nothing of this process is open there to close, and a migration under
  // way rolls back with its connection, so the process ends at once.
  if (location.databaseUrl) stopSignal.onForced(() => store || process.exit(stopSignal.exitCode()));
  let storeReady: (store: SqlStore) => void = () => undefined;
  let storeFailed: (error: unknown) => void = () => undefined;
  const opened = new Promise<SqlStore>((resolve, reject) => {
    storeReady = resolve;
    storeFailed = reject;
  });
  opened.catch(() => undefined);
  try {
    if (!location.databaseUrl) {
      makeDataDir(location.dataDir);
      const socket = adminSocketPath(location.dataDir);
      const acquired = await acquireDataDirLock(location.dataDir, {
        command: 'ocs-server serve',
        socket,
        waitMs: 10_000,
      });
      if ('holder' in acquired) {
        discardAdminSocketPath(socket);
        throw new DataDirHeldError(location.dataDir, acquired.holder, acquired.undecided === true);
      }
      lock = acquired.lock;
      // Listening before the store opens: a command sent meanwhile waits for it.
      channel = await listenAdminChannel(socket, (request) =>
        answerAdminRequest(opened, request, () => running?.forgetCachedKeys()),
      ).catch((error: unknown) => {
        discardAdminSocketPath(socket);
        throw error;
      });
    }
    store = await openStore(location, lock ? { lock } : {});
    storeReady(store);
    const hint = storeHint(values, location);
    const demo = await ensureDemoOrganization(
      store,
      values.json ? undefined : (text) => process.stderr.write(`${text}\n`),
      hint,
    );
    running = await serve({
      store,
      port,
      host,
      config: { sandbox: !values['no-sandbox'], allowInsecureWebhooks: values['allow-insecure-webhooks'] },
      rateLimits: { ...(perEndpoint ? { perEndpoint } : {}), ...(total ? { total } : {}) },
      ...(corsOrigins ? { cors: { origins: corsOrigins } } : {}),
    }).catch((error: unknown) => {
      throw listenProblem(error, port, host);
    });
    process.stderr.write(`OCS reference server on ${running.url}/v1 (${describeLocation(location)})\n`);
    // One line for a script that starts the server: where it listens, and the demo key of a first start.
    // Written to the descriptor, not `process.stdout`: making that stream puts a pipe on fd 1 in
    // non-blocking mode, which the log's writer must not meet (decision 0019).
    if (values.json) writeSync(1, `${JSON.stringify(serveJson(running.url, location, demo))}\n`);
    process.stderr.write(`${describeCors(corsOrigins)}\n`);
    await stopSignal.first;
  } catch (error) {
    storeFailed(error);
    throw error;
  } finally {
    // Admin commands under way finish first; then the listener (requests under way get a
    // grace period, a second signal cuts it short), the engine and the store, and the lock.
    stopSignal.onForced(() => running?.dropConnections());
    await channel?.close();
    await running?.close({ graceMs });
    await store?.close();
    lock?.release();
    stopSignal.dispose();
  }
  return stopSignal.exitCode();
}

/** `serve --json`'s line: the API's URL, the store, and the demo organization a first start made (else null). */
function serveJson(url: string, location: StoreLocation, demo: DemoOrganization | null) {
  return {
    url: `${url}/v1`,
    store: location.databaseUrl ? 'postgres' : 'pglite',
    ...(location.databaseUrl ? {} : { dataDir: location.dataDir }),
    demo,
  };
}

/**
 * What the printed `key create` command needs to open the same store: `--data-dir` when
 * `--data-dir` or `OCS_DATA_DIR` chose the directory; on PostgreSQL, `--database-url` (a URL holding a password is not printed, as
 * the line may end up in a log) or the same `DATABASE_URL`. Without it, the command opened the
 * default PGlite directory and found no such organization.
 */
function storeHint(values: Values, location: StoreLocation): StoreHint {
  if (location.databaseUrl) {
    const flag = values['database-url'];
    if (flag === undefined) return { options: '', when: 'with the same DATABASE_URL' };
    return { options: hasPassword(flag) ? ' --database-url <the same URL>' : ` --database-url ${shellQuote(flag)}` };
  }
  // From --data-dir or OCS_DATA_DIR (which the command may not be given): named either way.
  const chosen = values['data-dir'] !== undefined || environment('OCS_DATA_DIR') !== undefined;
  return { options: chosen ? ` --data-dir ${shellQuote(location.dataDir)}` : '' };
}

function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '' || /password=/i.test(url);
  } catch {
    return true;
  }
}

/** How long requests and deliveries under way may take to finish once a stop signal came (`OCS_SHUTDOWN_GRACE_MS`). */
function shutdownGraceMs(): number {
  const value = integerOption(
    'OCS_SHUTDOWN_GRACE_MS',
    environment('OCS_SHUTDOWN_GRACE_MS'),
    0,
    Number.MAX_SAFE_INTEGER,
  );
  return value === undefined ? defaultShutdownGraceMs : Math.min(value, longestTimerMs);
}

/**
 * A PostgreSQL URL that pg could not even parse (pg says only "Invalid URL", an internal
 * error): a mistake in the setting, said as one. pg's other form, a socket directory and a
 * database (`/var/run/postgresql mydb`), is left to pg. The value is not repeated: it may hold
 * a password.
 */
function checkDatabaseUrl(label: string, value: string): void {
  if (value.startsWith('/')) return;
  try {
    new URL(value);
  } catch {
    throw new UsageError(`${label} is not a valid URL (postgres://user:password@host:5432/database, port 0 to 65535).`);
  }
}

function quietOnClosedOutput(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
}

/**
 * Fails as listening would (one line saying what to do) when `port` on `host` is taken or
 * `host` is no address of this machine. Port 0 is probed too: a host that cannot be listened
 * on is said before a first start prints the demo key of a server that would not start.
 */
async function ensurePortFree(port: number, host: string): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((error: unknown) => {
    throw listenProblem(error, port, host);
  });
}

function describeCors(origins: '*' | string[] | undefined): string {
  if (origins === undefined) return 'CORS: off; pages on other origins cannot call /v1 (allow one with --cors-origin).';
  if (origins === '*') return 'CORS: pages on any origin may call /v1.';
  return `CORS: pages on ${origins.join(', ')} may call /v1.`;
}

function shellQuote(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** One line for any error; the stack too when debugging. Returns the exit code. */
export function report(error: unknown, argv: string[]): number {
  // Escaped, whatever a message repeats (`LOG_LEVEL`'s value, say): the line stays one line.
  if (error instanceof UsageError) {
    process.stderr.write(`ocs-server: ${escapedText(error.message)} ${seeHelp}\n`);
    return 2;
  }
  if (error instanceof DataDirHeldError) {
    const held = error.holder;
    process.stderr.write(
      `ocs-server: ${error.dataDir} is already in use by ${describeHolder(held)}; ` +
        (error.undecided
          ? `${recoverByHand(error.dataDir)}\n`
          : held.socket
            ? `stop that server first (kill ${held.pid}) or serve another --data-dir.\n`
            : `try again when it has finished, or serve another --data-dir.\n`),
    );
    return 1;
  }
  if (error instanceof CliFailure || error instanceof NotADataDirError || error instanceof DamagedDataDirError) {
    process.stderr.write(`ocs-server: ${escapedText(error.message)}\n`);
    return 1;
  }
  const problem = environmentProblem(error);
  process.stderr.write(
    problem === null
      ? `ocs-server: internal error: ${firstLine(error)}${debugging(argv) ? '' : ' (run with --debug or OCS_DEBUG=1 for the stack)'}\n`
      : `ocs-server: ${problem}\n`,
  );
  if (debugging(argv) && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}

export async function run(argv: string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    process.exitCode = report(error, argv);
  }
}
