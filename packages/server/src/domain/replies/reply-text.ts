/**
 * The part of a reply that the prospect wrote: what is classified, and what decides whether
 * a reply has any text to analyse at all (section 6: a reply with no text, or only a
 * signature or an automatic footer, is not analysed).
 *
 * Removed, in this order:
 * 1. Quoted history: everything from the first line that opens a quote (`On <date>, <name>
 *    wrote:`, `-----Original Message-----`, an Outlook `From:` header line, a line of
 *    underscores), and every line that starts with `>`. Our own outreach text is quoted
 *    there; classifying it would read our words as the prospect's.
 * 2. The signature: everything after a `-- ` delimiter line (RFC 3676).
 * 3. Automatic footers that mobile clients add: "Sent from my iPhone", "Get Outlook for
 *    Android" and the like, on a line of their own.
 */

const quoteOpeners: readonly RegExp[] = [
  /^\s*on\b.{0,200}\bwrote:\s*$/i,
  /^\s*-{2,}\s*original message\s*-{2,}\s*$/i,
  /^\s*from:\s.+$/i,
  /^\s*_{10,}\s*$/,
];

const signatureDelimiter = /^-- ?$/;

const automaticFooters: readonly RegExp[] = [
  /^\s*sent from my [\w\s-]{1,40}$/i,
  /^\s*sent from (outlook|mail|yahoo mail|gmail)\b.{0,60}$/i,
  /^\s*get outlook for [\w\s-]{1,30}$/i,
  /^\s*sent via [\w\s.-]{1,40}$/i,
];

/** The prospect's own words of `message`, trimmed; an empty string when there are none. */
export function replyText(message: string | null | undefined): string {
  if (!message) return '';
  const kept: string[] = [];
  for (const line of message.replace(/\r\n?/g, '\n').split('\n')) {
    if (quoteOpeners.some((opener) => opener.test(line))) break;
    if (signatureDelimiter.test(line)) break;
    if (line.trimStart().startsWith('>')) continue;
    if (automaticFooters.some((footer) => footer.test(line))) continue;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

/** Whether `text` has at least one letter or digit: something to analyse. */
export const hasWords = (text: string) => /[\p{L}\p{N}]/u.test(text);

/** Whether the reply has anything to analyse: a letter or digit of the prospect's own. */
export const hasReplyText = (message: string | null | undefined) => hasWords(replyText(message));
