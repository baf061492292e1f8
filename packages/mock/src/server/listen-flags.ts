/**
 * `--port` and `--host` of the package's command-line tools (`ocs-mock`, `ocs-mock proxy`,
 * `npm run mock`), checked one way: the reference server's checks (cli-kit: an address or
 * name a URL holds alone, no longer than DNS allows). A mistake is a `UsageError` (one line, exit
 * code 2) said before anything listens.
 */
import { environment, integerOption, listenHost } from '@ocs/server/cli-kit';

export interface ListenFlags {
  port?: string;
  host?: string;
}

/**
 * The port and host to listen on: the flags, else (with `variables`) `PORT` and `HOST`, else
 * the defaults. An empty `--host` (every interface) is refused; an empty variable counts as
 * not set.
 */
export function listenFlags(
  flags: ListenFlags,
  defaults: { port: number; variables: boolean },
): { port: number; host: string } {
  // Without the variables, the default stands in for the flag: the checks and their words are the same.
  const host = listenHost(flags.host ?? (defaults.variables ? undefined : '127.0.0.1'));
  const port =
    integerOption('--port', flags.port, 0, 65535) ??
    (defaults.variables ? integerOption('PORT', environment('PORT'), 0, 65535) : undefined) ??
    defaults.port;
  return { port, host };
}
