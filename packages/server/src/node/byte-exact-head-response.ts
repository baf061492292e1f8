/**
 * The listener's `ServerResponse`: the header block goes out as the bytes its values stand
 * for, whatever the body is.
 *
 * Header values are byte strings: Node reads each byte of a request's header as one
 * character (latin1), and a response header holding such a character (an `Idempotency-Key`
 * echoed back) must go out as that byte. Node writes the header block together with the
 * first body chunk when that chunk is a string (`OutgoingMessage#_send`, to put both in one
 * packet), in the chunk's encoding: UTF-8 for the adapter's string bodies and for
 * `flushHeaders`. The key `c3 a9` then went out as `c3 83 c2 a9`. Given bytes instead of a
 * string, Node writes the header block by itself as latin1, just before them. So every string
 * chunk is turned into the bytes it stands for before Node sees it; a latin1 string already
 * is those bytes and is left as it is (Node's own chunk-size lines and trailers).
 *
 * `_send` is Node's own (undocumented, but long-standing); a Node that stopped calling
 * it would send the old bytes again, which `test/node/byte-exact-headers.test.ts` catches.
 */
import { type IncomingMessage, ServerResponse } from 'node:http';

type Send = (
  data: string | Uint8Array,
  encoding?: BufferEncoding | null,
  callback?: unknown,
  byteLength?: number,
) => boolean;

const nodeSend = (ServerResponse.prototype as unknown as { _send: Send })._send;

export class ByteExactHeadResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Where Node writes everything (headers, body, chunk framing) to the socket. */
  _send(data: string | Uint8Array, encoding?: BufferEncoding | null, callback?: unknown, byteLength?: number): boolean {
    const bytes =
      typeof data === 'string' && encoding !== 'latin1' && encoding !== 'binary'
        ? Buffer.from(data, encoding ?? 'utf8')
        : data;
    return nodeSend.call(this, bytes, bytes === data ? encoding : null, callback, byteLength);
  }
}
