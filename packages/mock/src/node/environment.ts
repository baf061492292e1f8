/**
 * The Node entry refuses to run outside Node with a message that says what to import
 * instead (a bundler that ignores the package's `browser` condition would otherwise fail
 * obscurely). jsdom and happy-dom test environments are Node with a `window`: they pass,
 * as MSW's `setupServer` works there.
 */
export function assertNode(): void {
  if (typeof process === 'undefined' || typeof process.versions?.node !== 'string') {
    throw new Error(
      '@ocs/mock/node was loaded outside Node. In a browser, import { createOcsMock } from "@ocs/mock/browser" and start it with setupWorker from "msw/browser".',
    );
  }
}
