/**
 * What a name shown on one line (a table of `ocs-server org list`, a sender account's label
 * in `GET /v1/accounts` and on the connect page) must not hold, one rule for the names given
 * (refused) and the names stored (escaped when printed):
 * - control characters (C0, DEL, C1): a line break or a tab breaks the table, an escape
 *   sequence drives the terminal;
 * - U+2028 and U+2029, the line and paragraph separators, which many terminals and log viewers
 *   take for line breaks;
 * - the bidirectional-text controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
 *   U+2069), invisible, which reorder what follows them on the line: a name could show as
 *   another name, or move the columns after it ("Trojan Source", CVE-2021-42574).
 * Global, for `replace`; `search` (which ignores `lastIndex`) tells whether a name holds any.
 * Never `test`, whose `lastIndex` a global expression keeps between calls.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for.
export const unprintable = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
