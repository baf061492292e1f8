/**
 * What the two command-line tools (`ocs-server`, and `ocs-mock`, which bundles this file)
 * share: their two kinds of error, numbers checked in full, the address to listen on, the
 * CORS origins, options given once, node:util's parseArgs errors and listen failures said in
 * one line, the debug switch and where options end, and values given repeated in messages.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { listenOrigin } from '../http/listen-origin.ts';
import { parseCorsOrigins } from '../http/middleware/cors.ts';
import { echoed, escapedText, holdsUnprintable } from './echoed-value.ts';

/** A value given, for a message: escaped and cut short (the tools' messages repeat what was given this way). */
export { echoed };

/** A mistake in how the command was called: one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Something that did not happen, said in one line (exit code 1). */
export class CliFailure extends Error {
  override name = 'CliFailure';
}

/** A whole number in [min, max], written in digits only: `1e3`, `0x10`, ` 8` and `8.0` are refused. */
export function integerOption(label: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(parsed >= min && parsed <= max)) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `an integer from ${min} to ${max}`;
    throw new UsageError(`${label} must be ${range}, got '${echoed(value)}'.`);
  }
  return parsed;
}

/** An environment variable, undefined when it is not set or empty (`PORT=` means no port given). */
export function environment(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * The interface to listen on: `--host`, else `HOST`, else 127.0.0.1. An empty host would
 * listen on every interface: a flag given empty is a mistake, and an empty variable (`HOST=`
 * in an env file) counts as not set.
 */
export function listenHost(flag: string | undefined): string {
  if (flag?.trim() === '')
    throw new UsageError('--host needs an address (127.0.0.1, or 0.0.0.0 to listen on every interface).');
  const fromVariable = flag === undefined ? environment('HOST') : undefined;
  const host = flag ?? fromVariable ?? '127.0.0.1';
  // A line break or tab inside (a pasted value) is no part of a name: it was looked up as
  // one, and the failure printed the value over two lines.
  if (!isDnsSized(host) || holdsUnprintable(host) || listenOrigin(host) === null) {
    throw new UsageError(
      `${flag === undefined ? 'HOST' : '--host'} must be an interface's address or name (127.0.0.1, ::1, 0.0.0.0, localhost), got '${echoed(host)}'.`,
    );
  }
  return host;
}

/**
 * Whether a host name is one DNS can hold: at most 253 characters, each label at most 63. A
 * longer one made the lookup fail as an internal error (getaddrinfo's EINVAL), and no browser
 * sends an origin holding one.
 */
function isDnsSized(host: string): boolean {
  return host.length <= 253 && host.split('.').every((label) => label.length <= 63);
}

/**
 * The origins pages may call `/v1` from: `--cors-origin` (repeated and/or comma-separated),
 * else the environment variable `variable` when the tool reads one; undefined when neither is
 * given. Exact origins, or `*` alone for any: `*` mixed with named origins is a mistake
 * (parseCorsOrigins), as is a flag naming no origin (`--cors-origin=`, which would otherwise
 * turn CORS off, or on for no one, unsaid); an empty variable counts as not set.
 */
export function corsOriginsOption(flags: readonly string[] | undefined, variable?: string): '*' | string[] | undefined {
  const fromVariable = flags === undefined && variable !== undefined ? environment(variable) : undefined;
  const given = flags ?? (fromVariable === undefined ? [] : [fromVariable]);
  if (given.length === 0) return undefined;
  const label = flags ? '--cors-origin' : variable;
  // The URL parser drops tabs and line breaks: `http://a.com<newline>x` was allowed as the
  // origin http://a.comx, which no page has.
  const unprintableValue = given.find(holdsUnprintable);
  if (unprintableValue !== undefined)
    throw new UsageError(
      `${label} must be origins without line breaks or other control characters, got '${echoed(unprintableValue)}'.`,
    );
  let origins: '*' | string[];
  try {
    origins = parseCorsOrigins(given);
  } catch (error) {
    throw new UsageError(`${label}: ${firstLine(error)}`);
  }
  const unreal = origins === '*' ? undefined : origins.find((origin) => !isDnsSized(new URL(origin).hostname));
  if (unreal !== undefined)
    throw new UsageError(
      `${label}: '${echoed(unreal)}' is no origin a browser sends (a host name is at most 253 characters, each part at most 63).`,
    );
  if (origins.length > 0) return origins;
  if (flags)
    throw new UsageError(
      '--cors-origin needs an origin (scheme://host[:port], e.g. http://localhost:5173) or * for any.',
    );
  return undefined;
}

/** What node:util's parseArgs returns with `tokens: true`, as far as `refuseRepeatedOptions` reads it. */
export interface OptionToken {
  kind: string;
  name?: string;
}

/**
 * Refuses an option that takes one value given more than once (`--org A --org B`): parseArgs
 * kept the last, unsaid, so which one was meant? The API refuses a header or query parameter
 * given more than once the same way. Options declared `multiple` (`--cors-origin`) are meant
 * to repeat; a switch (`--json --json`) means the same however often it is given. The values
 * are not repeated: one may hold a password (`--database-url`).
 */
export function refuseRepeatedOptions(
  tokens: readonly OptionToken[],
  options: Readonly<Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>,
): void {
  const counts = new Map<string, number>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (option?.type !== 'string' || option.multiple) continue;
    const count = (counts.get(token.name) ?? 0) + 1;
    counts.set(token.name, count);
    if (count === 2)
      throw new UsageError(`--${token.name} must be given once (it takes one value); keep the one you mean.`);
  }
}

type ArgsConfig = Parameters<typeof parseArgs>[0] & { options: NonNullable<ParseArgsConfig['options']> };

/**
 * A tool's command line read strictly, every mistake a `UsageError` in one line: parseArgs'
 * own (`parseArgsProblem`, `positionals` saying what to do with an unexpected argument), and
 * an option that takes one value given twice (`refuseRepeatedOptions`). Every tool the
 * packages ship (`ocs-server`, `ocs-mock` and its commands, `ocs`, `npm run mock`) and the
 * fuzzer read their command lines here, so that each refuses the same mistakes.
 */
export function parseCommandLine<const T extends ArgsConfig>(
  config: T,
  positionals?: string,
): ReturnType<typeof parseArgs<T & { tokens: true; strict: true }>> {
  let parsed;
  try {
    parsed = parseArgs({ ...config, tokens: true, strict: true });
  } catch (error) {
    throw new UsageError(parseArgsProblem(error, positionals));
  }
  refuseRepeatedOptions(parsed.tokens ?? [], config.options);
  return parsed as ReturnType<typeof parseArgs<T & { tokens: true; strict: true }>>;
}

/**
 * node:util's parseArgs errors (ERR_PARSE_ARGS_*), said in a line. `positionals` is what to
 * say of an unexpected argument (for a tool that takes options only). What was given is
 * repeated escaped and cut short (`echoed`).
 */
export function parseArgsProblem(error: unknown, positionals?: string): string {
  const message = error instanceof Error ? error.message : String(error);
  // Up to parseArgs' own advice, so that an option holding `'` is named whole.
  const unknown = /^Unknown option '([\s\S]+?)'(?:\. To specify|$)/.exec(message);
  if (unknown) return `unknown option ${echoed(unknown[1] as string)}.`;
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value.`;
  const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value (write ${ambiguous[1]}=<value> for one starting with '-').`;
  const noValue = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message);
  if (noValue) return `${noValue[1]} takes no value.`;
  const positional = /^Unexpected argument '([\s\S]+?)'(?:\. This command does not take|$)/.exec(message);
  if (positional && positionals) return `unexpected argument '${echoed(positional[1] as string)}' (${positionals}).`;
  return firstLine(error);
}

/** An error's message as one line (its first non-empty one, at most 300 characters). */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n').find((part) => part.trim() !== '') ?? 'unknown error';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line.trim();
}

/**
 * A listener that could not start, as a `CliFailure` saying what to choose instead; other
 * errors as they are. The host is repeated as a value given (`echoed`): listenHost lets a
 * name of up to 253 characters through, which no lookup finds.
 */
export function listenProblem(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') {
    return new CliFailure(
      `port ${port} on ${echoed(host)} is in use; choose another with --port (0 picks a free one).`,
    );
  }
  if (code === 'EACCES') return new CliFailure(`not allowed to listen on port ${port}; choose one above 1023.`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CliFailure(`cannot listen on host '${echoed(host)}' (${code}); choose another with --host.`);
  }
  return error;
}

/**
 * Where a command line's options end: at its first `--`, after which every argument is an
 * operand (`--debug` there is a value for the command, not the switch), as POSIX getopt and
 * node:util's parseArgs, so `parseCommandLine`, read it; `argv.length` when there is none.
 * The first `--` is always that end when parseCommandLine accepts the line: as the value of
 * an option (`--name --`) it is refused as ambiguous.
 */
export function optionsEnd(argv: readonly string[]): number {
  const at = argv.indexOf('--');
  return at < 0 ? argv.length : at;
}

/**
 * Whether to print stacks: `--debug` among the options (before any `--`), or `OCS_DEBUG` set to
 * anything but empty, `0` or `false`.
 */
export function debugging(argv: readonly string[]): boolean {
  const flag = process.env.OCS_DEBUG;
  const switched = argv.slice(0, optionsEnd(argv)).includes('--debug');
  return switched || (flag !== undefined && flag !== '' && flag !== '0' && flag !== 'false');
}

/**
 * Ends a tool on an error, in one line on stderr: a mistake (`UsageError`) pointing to the
 * tool's help, exit code 2; a failure (`CliFailure`), exit code 1; anything else an internal
 * error, exit code 1, its stack only under `--debug` or `OCS_DEBUG=1`. `ocs-mock`, `ocs` and
 * `npm run mock` end this way (`help`: the command that prints their usage).
 */
export function exitOnError(tool: string, help: string, error: unknown): never {
  // Escaped, whatever a message repeats: the line stays one line.
  if (error instanceof UsageError) {
    process.stderr.write(`${tool}: ${escapedText(error.message)} Run ${help} for usage.\n`);
    process.exit(2);
  }
  if (error instanceof CliFailure) {
    process.stderr.write(`${tool}: ${escapedText(error.message)}\n`);
    process.exit(1);
  }
  const debug = debugging(process.argv);
  process.stderr.write(
    `${tool}: internal error: ${firstLine(error)}${debug ? '' : ' (run with --debug or OCS_DEBUG=1 for the stack)'}\n`,
  );
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}
