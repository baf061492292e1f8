/** `GET /sequence-templates` and its deprecated path `GET /campaigns/sequence-templates`. */
import { sequenceTemplates } from '../domain/sequence-templates.ts';
import type { PartialHandlers } from './registry.ts';

export const templateHandlers: PartialHandlers = {
  async listSequenceTemplates() {
    return { status: 200, body: { success: true, templates: structuredClone([...sequenceTemplates]) } };
  },
  // Same body; the pipeline adds the Deprecation and Link headers from the document.
  async listSequenceTemplatesLegacy() {
    return { status: 200, body: { success: true, templates: structuredClone([...sequenceTemplates]) } };
  },
};
