// @ts-check
/**
 * The SDK's API reference (`npm run docs`, second step): TypeDoc over @ocs/sdk's public
 * entries (`.`, `./resources`, `./webhooks` for Node and the web, the receivers
 * `./webhooks/node`, `/fastify` and `/fetch`, `./zod`, `./types`) into dist/docs/sdk.
 */
import { OptionDefaults } from 'typedoc';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
const config = {
  name: '@ocs/sdk',
  entryPoints: [
    'packages/sdk/src/index.ts',
    'packages/sdk/src/webhooks/node.ts',
    'packages/sdk/src/webhooks/web.ts',
    'packages/sdk/src/webhooks/receivers/node.ts',
    'packages/sdk/src/webhooks/receivers/fastify.ts',
    'packages/sdk/src/webhooks/receivers/fetch.ts',
    'packages/sdk/src/zod.ts',
    'packages/sdk/src/resources.ts',
    'packages/sdk/src/generated/openapi.ts',
  ],
  tsconfig: 'packages/sdk/tsconfig.json',
  readme: 'packages/sdk/README.md',
  out: 'dist/docs/sdk',
  excludePrivate: true,
  excludeInternal: true,
  disableSources: true,
  // The generated types (openapi-typescript) describe each field with `@description` and
  // each literal with `@constant`: known tags here, so the text shows and nothing warns.
  blockTags: [...OptionDefaults.blockTags, '@description', '@constant'],
  // Helper types of the public signatures that the SDK does not export: TypeDoc shows them
  // by name where they are used; exporting them would make them part of the API.
  intentionallyNotExported: [
    'Responses',
    'ErrorCodeIn',
    'SuccessStatus',
    'Operations',
    'Method',
    'Empty',
    'Json',
    'DeclaresIdempotencyKey',
    'Simplify',
    'Parameters_',
    'Body',
    'Paginators',
    'ListOperation',
    'Groups',
    'Loose',
  ],
};

export default config;
