/**
 * Which `Transfer-Encoding` a request may carry: `chunked` alone, on HTTP/1.1. Node's parser
 * already refuses a list whose last coding is not `chunked` (the body's length cannot be
 * told), but it reads `gzip, chunked` as chunked and hands the body on still compressed, and
 * the body was then read as if it were not (RFC 9112 section 6.1: a coding the server does
 * not understand). The server decodes no transfer coding but chunked, and an HTTP/1.0
 * message has none at all: RFC 9112 section 6.1 says to treat its framing as faulty.
 */
import type { IncomingMessage } from 'node:http';

/** What is wrong with the request's transfer codings, or null when there is nothing to refuse. */
export function transferCodingProblem(request: IncomingMessage): string | null {
  const sent = request.headers['transfer-encoding'];
  if (sent === undefined) return null;
  if (request.httpVersion === '1.0') {
    return 'sends Transfer-Encoding in HTTP/1.0, which has no transfer codings: send Content-Length, or use HTTP/1.1';
  }
  // Node joins the header's lines with ", ", so `gzip` and `chunked` on two lines are read here too.
  const codings = sent.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.length === 1 && codings[0] === 'chunked') return null;
  return (
    `uses Transfer-Encoding ${JSON.stringify(sent.slice(0, 100))}, and the server decodes only chunked: ` +
    'send the body uncompressed, with Content-Length or chunked alone'
  );
}
