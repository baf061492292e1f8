/**
 * How `ocs listen` and `ocs trigger` reach a server: `--base-url` and `--api-key`, else
 * `OCS_BASE_URL` and `OCS_API_KEY` (the SDK's own variables), through the SDK's client. An
 * API error or an unreachable server becomes one line (`CliFailure`) naming the operation.
 */
import { createClient, OcsApiError, OcsConnectionError, OcsError, type OcsClient, OcsTimeoutError } from '@ocs/sdk';
import { CliFailure, echoed, UsageError } from '@ocs/server/cli-kit';

/** The options every `ocs` command takes, for node:util's parseArgs. */
export const connectionOptions = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
} as const;

/** The help lines of `connectionOptions`, their texts starting at `column` as the command's other options' do. */
export function connectionHelp(column: number): string {
  const line = (option: string, text: string) => `  ${option}`.padEnd(column) + text;
  return [
    line('--base-url <url>', 'the server (or OCS_BASE_URL; default http://127.0.0.1:4011, ocs-mock)'),
    line('--api-key <key>', 'its API key (or OCS_API_KEY)'),
  ].join('\n');
}

/** How long a command waits for one call's answer. */
export const callTimeoutMs = 30_000;

export interface Connection {
  client: OcsClient;
  baseUrl: string;
}

export function connect(values: { 'base-url'?: string; 'api-key'?: string }): Connection {
  const apiKey = values['api-key'] ?? (process.env.OCS_API_KEY || undefined);
  if (!apiKey) throw new UsageError('an API key is needed: pass --api-key or set OCS_API_KEY.');
  const fromVariable = values['base-url'] === undefined ? process.env.OCS_BASE_URL || undefined : undefined;
  const baseUrl = values['base-url'] ?? fromVariable ?? 'http://127.0.0.1:4011';
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) {
    // Named as given: a wrong OCS_BASE_URL is not fixed by looking at the command line.
    const label = fromVariable === undefined ? '--base-url' : 'OCS_BASE_URL';
    throw new UsageError(`${label} must be an http(s) URL, got '${echoed(baseUrl)}'.`);
  }
  try {
    // A CLI reports at once: one retry covers a blip, not a server that is down.
    return { client: createClient({ apiKey, baseUrl, maxRetries: 1, timeoutMs: callTimeoutMs }), baseUrl };
  } catch (error) {
    // The SDK checks the key's shape before any request: a typo is a usage mistake.
    if (error instanceof OcsError) {
      throw new UsageError(
        `the API key is malformed (${error.message.replace(/^Invalid API key: /, '').replace(/\.$/, '')}): pass the key the server printed with --api-key or OCS_API_KEY.`,
      );
    }
    throw error;
  }
}

/** Runs one SDK call; its failure is said in one line naming the operation. */
export async function call<T>(what: string, baseUrl: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw describeFailure(what, baseUrl, error);
  }
}

export function describeFailure(what: string, baseUrl: string, error: unknown): unknown {
  if (error instanceof OcsConnectionError || error instanceof OcsTimeoutError) {
    const how = error instanceof OcsTimeoutError ? 'no answer in time from' : 'cannot reach';
    return new CliFailure(
      `${how} ${echoed(baseUrl)} (${what}): is the server running? Set --base-url or OCS_BASE_URL.`,
    );
  }
  if (error instanceof OcsApiError && error.status === 401) {
    return new CliFailure(
      `${echoed(baseUrl)} refused the API key (${what} answered 401 ${error.code}): pass one of its keys with --api-key or OCS_API_KEY.`,
    );
  }
  if (error instanceof OcsApiError) {
    return new CliFailure(`${what} answered ${error.status} ${error.code}: ${error.message}`);
  }
  if (error instanceof OcsError) return new CliFailure(`${what} failed: ${error.message}`);
  return error;
}

/** Whether `error` is the API's error `code` (at any status). */
export function isApiError(error: unknown, code: string): error is OcsApiError {
  return error instanceof OcsApiError && error.code === code;
}
