/**
 * A deprecated operation answers `Deprecation` and names its successor in a `Link` header
 * (`</v1/leads>; rel="successor-version"`), when it has one. The client says so once per
 * operation (method and route template), not on every call.
 */
/** Where the client writes: deprecation warnings to `warn`, debug lines to `debug` (else `warn`). */
export type Logger = { warn(message: string): void; debug?: ((message: string) => void) | undefined };

export function createDeprecationLog(logger: Logger) {
  const warned = new Set<string>();
  return (route: string, headers: Headers): void => {
    if (!headers.has('deprecation') || warned.has(route)) return;
    warned.add(route);
    const successor = /<([^>]*)>[^,]*successor-version/.exec(headers.get('link') as string)?.[1];
    // A `Deprecation` without a successor's `Link` says only that.
    logger.warn(`[@ocs/sdk] ${route} is deprecated${successor ? `; move to ${successor}` : ''}.`);
  };
}
