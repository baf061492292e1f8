/** Every route handler, by operationId. A test checks that all operations have one. */
import { accountHandlers } from './accounts.ts';
import { analyticsHandlers } from './analytics.ts';
import { authHandlers } from './auth.ts';
import { campaignHandlers } from './campaigns.ts';
import { leadHandlers } from './leads.ts';
import { leadCreateHandlers } from './leads-create.ts';
import { leadDeleteHandlers } from './leads-delete.ts';
import { abTestingHandlers } from './ab-testing.ts';
import { aiFieldHandlers } from './ai-fields.ts';
import { campaignUpdateHandlers } from './campaign-update.ts';
import { preflightHandlers } from './preflight.ts';
import { previewHandlers } from './preview.ts';
import { responderHandlers } from './responder.ts';
import { senderHandlers } from './senders.ts';
import { sequenceHandlers } from './sequences.ts';
import { templateHandlers } from './templates.ts';
import { dealHandlers } from './crm-deals.ts';
import { pipelineHandlers } from './crm-pipelines.ts';
import type { PartialHandlers } from './registry.ts';
import { sandboxHandlers } from './sandbox.ts';
import { sandboxReplyHandlers } from './sandbox-replies.ts';
import { webhookHandlers } from './webhooks.ts';

export const handlers: PartialHandlers = {
  ...authHandlers,
  ...campaignHandlers,
  ...campaignUpdateHandlers,
  ...preflightHandlers,
  ...sequenceHandlers,
  ...abTestingHandlers,
  ...previewHandlers,
  ...templateHandlers,
  ...senderHandlers,
  ...aiFieldHandlers,
  ...responderHandlers,
  ...leadHandlers,
  ...leadCreateHandlers,
  ...leadDeleteHandlers,
  ...accountHandlers,
  ...webhookHandlers,
  ...pipelineHandlers,
  ...dealHandlers,
  ...analyticsHandlers,
  ...sandboxHandlers,
  ...sandboxReplyHandlers,
};
