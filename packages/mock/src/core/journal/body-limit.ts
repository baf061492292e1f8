/**
 * How much of a request body the journal reads: never more than the API accepts. The
 * application answers `413 PAYLOAD_TOO_LARGE` to a body over 1 MB, from its `Content-Length`
 * before reading anything, or as soon as a streamed body passes the limit. The journal reads
 * its copy first (the engine awaits it before the application sees the request), so a journal
 * that read every body whole held a 200 MB body refused with 413, kept it in its entry, and
 * delayed that 413 until the client had sent all of it. Now it reads no body the application
 * would refuse unread, stops reading one as soon as it passes the limit, and lets go of its
 * copy of the stream; the entry's `body` then says it was not kept (`bodyNotKept`).
 */
import { maxBodyBytes } from '@ocs/server';

/**
 * The API's body limit, the application's own (`maxBodyBytes`). test/journal-body-limit.test.ts
 * checks both sides of it against the application's answers (a body of exactly the limit is
 * kept and not refused, one byte more is refused and not kept).
 */
export const journalBodyLimit = maxBodyBytes;

/**
 * An entry's `body` when the request's body was over the limit: not read past it, not kept.
 * Not JSON and mentions no secret, so the redaction shows it as it is (redact.ts).
 */
export const bodyNotKept = '[not kept: over the 1 MB body limit]';

/**
 * Whether the request declares a body over the limit, read as the application reads it
 * (`readWithin` of packages/server/src/http/body.ts): such a body is refused before any of it
 * is read, so the journal reads none either.
 */
export function declaresBodyOverLimit(request: Request, limit = journalBodyLimit): boolean {
  const declared = Number(request.headers.get('content-length'));
  return Number.isFinite(declared) && declared > limit;
}

const utf8 = new TextDecoder();

/**
 * The text of `stream` (the journal's copy of a request body) as `Response.text()` reads it,
 * or undefined as soon as it passes `limit` bytes: the chunks read are dropped and the copy is
 * cancelled. The copy is a branch of the request's own stream (`clone()` tees it): while the
 * journal reads, every chunk also waits in the application's branch, so stopping at the limit
 * bounds that too. A declared length cannot be trusted here: an in-process `Request` may carry
 * one its body does not have.
 */
export async function textWithin(
  stream: ReadableStream<Uint8Array>,
  limit = journalBodyLimit,
): Promise<string | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      // Not awaited: cancelling one branch of a tee settles only once the other branch is
      // cancelled or done too, and the application reads that one after this returns.
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return utf8.decode(bytes);
}
