/**
 * Generates `packages/sdk/src/generated/zod.ts` (zod schemas derived from the document's
 * components) from the bundled document. Owned by the SDK webhooks work (issue 3); returns
 * the module's source text.
 */
export function generateZodModule(document: Record<string, unknown>): string {
  void document;
  return 'export {};\n';
}
