/**
 * Generates `packages/sdk/src/generated/operations.ts` from the bundled document.
 * Owned by the SDK client work (issue 3); returns the module's source text.
 */
export function generateOperationsModule(document: Record<string, unknown>): string {
  void document;
  return 'export {};\n';
}
