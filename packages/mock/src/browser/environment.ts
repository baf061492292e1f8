/**
 * The browser entry refuses to run in Node (where MSW's service worker does not exist)
 * with a message that says what to import instead.
 */
export function assertBrowser(): void {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  if (isNode && typeof window === 'undefined') {
    throw new Error(
      '@ocs/mock/browser was loaded in Node. In Node (Vitest, Jest, scripts), import { createOcsMock } from "@ocs/mock/node" and start it with setupServer from "msw/node".',
    );
  }
}
