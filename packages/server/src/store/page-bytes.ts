/**
 * Pages bounded by the size of their rows' text as well as by `limit` (decision 0006, "Sandbox
 * pages bounded by size"). A page holds its rows in order while the bytes of their texts, added
 * up, stay within the page's budget, and always its first row whatever its size: a row larger
 * than the budget still gets a page of its own, so advancing `offset` by `count` walks every row.
 *
 * Bytes are UTF-8 bytes: what PostgreSQL's `octet_length` reads from a value's header without
 * decompressing or fetching it, and so what the SQL stores can count before they read a text.
 */

/**
 * The text a sandbox page (messages, deliveries) may carry: 2,000,000 bytes. DynamoDB stops a
 * Query page at 1 MB of data read; this is twice that, so that a page of 100 ordinary messages
 * (a long cold email is some 5,000 characters) is never cut, nor a page of 500 below 4 KB each.
 * The JSON of a page is about this size, at most six times it (a control character takes 6
 * bytes written as `\u0001`), plus its first row.
 */
export const sandboxPageTextBytes = 2_000_000;

/** UTF-8 bytes of `text` (a lone surrogate counts as the 3 bytes of U+FFFD, which replaces it). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit < 0xe000;

/**
 * The first of `rows` (in their order) whose bytes, added up, stay within `maxBytes`, and always
 * the first row; all of them when `maxBytes` is undefined. Rows after the cut are not measured.
 */
export function takeWithinBytes<T>(rows: T[], bytesOf: (row: T) => number, maxBytes: number | undefined): T[] {
  if (maxBytes === undefined) return rows;
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    bytes += bytesOf(rows[i] as T);
    if (i > 0 && bytes > maxBytes) return rows.slice(0, i);
  }
  return rows;
}
