/** What a browser bundle gets for `@ocs/mock/node` (the package's `browser` condition). */
throw new Error(
  '@ocs/mock/node was imported in a browser bundle. In a browser, import { createOcsMock } from "@ocs/mock/browser" and start it with setupWorker from "msw/browser"; keep @ocs/mock/node for Node (setupServer from "msw/node").',
);

export {};
