/** Shared set-up of the Node tests: a mock behind MSW's `setupServer`, reset before each test. */
import { createClient, type OcsClient } from '@ocs/sdk';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createOcsMock, type OcsMock, type OcsMockOptions } from '../../src/node/index.ts';

export interface MockedApi {
  mock: OcsMock;
  server: SetupServer;
  /** A client of the mock; `options` as `createClient`'s. */
  client(options?: Parameters<typeof createClient>[0]): OcsClient;
}

/** Creates the mock, starts MSW for the file's tests, resets the mock before each test. */
export async function mockedApi(options: OcsMockOptions = {}): Promise<MockedApi> {
  const mock = await createOcsMock(options);
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => mock.reset());
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return {
    mock,
    server,
    client: (clientOptions) =>
      createClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, logger: { warn() {} }, ...clientOptions }),
  };
}
