/**
 * Calls the application in this process, with the seeded key: how the mock seeds its data
 * and fixtures, so that every request goes through the same rules as a test's requests.
 */
import type { App } from '@ocs/server';

/** A fixture or seed request the application refused: its answer says which rule. */
export class OcsMockSetupError extends Error {
  override name = 'OcsMockSetupError';
  constructor(
    readonly request: string,
    readonly status: number,
    readonly body: unknown,
    /** The fixture the request created (`fixtures.campaigns[1]`), when a fixture's. */
    readonly fixture?: string,
  ) {
    super(
      `@ocs/mock: the application refused ${request}${fixture ? ` for ${fixture}` : ''} while creating the mock's data (HTTP ${status}): ${JSON.stringify(body)}. Fix the fixture it names.`,
    );
  }

  /** The same refusal, saying which fixture it was for. */
  forFixture(fixture: string): OcsMockSetupError {
    return new OcsMockSetupError(this.request, this.status, this.body, fixture);
  }
}

export type CallApp = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** A caller of `app` at `origin` (`https://api.ocs.test`), authenticated with `apiKey`. */
export function inProcessCaller(app: App, origin: string, apiKey: string): CallApp {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await app.fetch(
      new Request(`${origin}/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const parsed: unknown = await response.json();
    if (!response.ok) throw new OcsMockSetupError(`${method} /v1${path}`, response.status, parsed);
    return parsed as T;
  };
}
