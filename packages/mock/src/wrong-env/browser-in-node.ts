/** What Node gets for `@ocs/mock/browser` (the package's `node` condition). */
throw new Error(
  '@ocs/mock/browser was imported in Node. In Node (Vitest, Jest, scripts), import { createOcsMock } from "@ocs/mock/node" and start it with setupServer from "msw/node"; keep @ocs/mock/browser for browsers (setupWorker from "msw/browser").',
);

export {};
