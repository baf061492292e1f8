/**
 * `@ocs/mock/node`: the stateful mock of the API for tests in Node, with MSW's
 * `setupServer` (`msw/node`), and the standalone mock HTTP server.
 *
 * @example
 * import { createOcsMock } from '@ocs/mock/node';
 * import { setupServer } from 'msw/node';
 *
 * const mock = await createOcsMock();
 * const server = setupServer(...mock.handlers);
 */
import { assertNode } from './environment.ts';

assertNode();

export * from '../core/public.ts';
export { type MockServer, type MockServerOptions, startMockServer } from '../server/start-mock-server.ts';
