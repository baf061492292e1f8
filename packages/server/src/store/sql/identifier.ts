/** `name` as a quoted SQL identifier (a table name read from the catalog, written into a statement). */
export function quotedIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
