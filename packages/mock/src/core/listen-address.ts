/**
 * Where a server of this package listens: `startMockServer`'s and `startPrism`'s `port` and
 * `host`, and the command-line tools' `--port` and `--host` (src/server/listen-flags.ts), all
 * held to one rule. A port is a whole number from 0 to 65535 (0: a free one); a host is an
 * interface's address or name that a URL can hold alone, and no longer than DNS allows.
 */
// Not from '@ocs/server' itself: that entry would bring the whole server into `@ocs/mock/prism`.
import { listenHost } from '@ocs/server/cli-kit';
import { shown } from './option-values.ts';

/**
 * The longest host name DNS holds, written out (RFC 1035's 255 bytes on the wire). A longer
 * one failed in the operating system's resolver (`getaddrinfo EINVAL`), as an internal error.
 */
export const longestHostName = 253;

/** The origin of a server on `host` (`http://[::1]` for `::1`), or null when no listener can have it. */
export function listenOriginOf(host: string): string | null {
  if (host.trim() === '') return null;
  try {
    // The reference server's check: an address or name a URL holds alone, no longer than DNS allows.
    listenHost(host);
  } catch {
    return null;
  }
  // An IPv6 address is bracketed in a URL.
  return `http://${host.includes(':') ? `[${host}]` : host}`;
}

/** Why `host` cannot be listened on, in words that follow its name, or null when it can. */
export function hostProblem(host: string): string | null {
  if (host.length > longestHostName) {
    return `must be at most ${longestHostName} characters (the longest name DNS holds), got ${host.length}`;
  }
  if (listenOriginOf(host) === null) {
    return `must be an interface's address or name (127.0.0.1, ::1, 0.0.0.0, localhost), got ${shown(host)}`;
  }
  return null;
}

/**
 * `port` and `host` as `startMockServer` and `startPrism` take them (undefined: the default),
 * with the server's URL origin: a `TypeError` naming the option otherwise. A port that is not
 * a number would be a pipe's path to Node; a host no URL can hold would make a base URL no
 * client can call.
 */
export function listenAddress(
  port: unknown,
  host: unknown,
  defaultPort: number,
): { port: number; host: string; origin: string } {
  const chosenPort = port ?? defaultPort;
  if (!(typeof chosenPort === 'number' && Number.isInteger(chosenPort) && chosenPort >= 0 && chosenPort <= 65535)) {
    throw new TypeError(
      `@ocs/mock: port must be a whole number from 0 to 65535 (0: a free one), got ${shown(chosenPort)}.`,
    );
  }
  const chosenHost = host ?? '127.0.0.1';
  if (typeof chosenHost !== 'string') {
    throw new TypeError(
      `@ocs/mock: host must be an interface's address or name (127.0.0.1, ::1, 0.0.0.0, localhost), got ${shown(chosenHost)}.`,
    );
  }
  const problem = hostProblem(chosenHost);
  const origin = listenOriginOf(chosenHost);
  if (problem !== null || origin === null) throw new TypeError(`@ocs/mock: host ${problem}.`);
  return { port: chosenPort, host: chosenHost, origin };
}
