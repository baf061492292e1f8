/**
 * `@ocs/mock/browser`: the stateful mock of the API for tests in a browser, with MSW's
 * `setupWorker` (`msw/browser`) and its service worker.
 *
 * @example
 * import { createOcsMock } from '@ocs/mock/browser';
 * import { setupWorker } from 'msw/browser';
 *
 * const mock = await createOcsMock();
 * await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
 */
import { assertBrowser } from './environment.ts';

assertBrowser();

export * from '../core/public.ts';
