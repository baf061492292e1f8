/** Every route handler, by operationId. A test checks that all operations have one. */
import { authHandlers } from './auth.ts';
import { campaignHandlers } from './campaigns.ts';
import type { PartialHandlers } from './registry.ts';

export const handlers: PartialHandlers = {
  ...authHandlers,
  ...campaignHandlers,
};
