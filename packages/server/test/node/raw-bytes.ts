/**
 * Bytes in, bytes out: a request written to the listener as a Buffer (a header byte past 0x7f,
 * a compressed body), and everything the server sends until it closes the connection, kept
 * as bytes so that a test can compare them exactly. Requests send `Connection: close` or use
 * HTTP/1.0, so that the server ends the exchange.
 */
import { connect } from 'node:net';

export interface ByteAnswer {
  status: number;
  /** The header lines as sent, one latin1 character per byte, names in lower case. */
  headers: Map<string, string>;
  /** The body, chunked framing removed. */
  body: Buffer;
}

/** Writes `request` to the server at `url` and resolves with every byte received until it closes. */
export function exchangeBytes(url: string, request: Buffer): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(received)));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('the server did not close within 10 s')));
  });
}

/** The first answer in `bytes`. */
export function parseAnswer(bytes: Buffer): ByteAnswer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete head: ${JSON.stringify(bytes.toString('latin1'))}`);
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = bytes.subarray(end + 4);
  if (headers.get('transfer-encoding') === 'chunked') body = unchunk(body);
  else if (headers.has('content-length')) body = body.subarray(0, Number(headers.get('content-length')));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** The bytes of header `name` as sent (each latin1 character is one byte). */
export function headerBytes(answer: ByteAnswer, name: string): Buffer | undefined {
  const value = answer.headers.get(name.toLowerCase());
  return value === undefined ? undefined : Buffer.from(value, 'latin1');
}

function unchunk(framed: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = framed.indexOf('\r\n', at);
    const size = Number.parseInt(framed.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(framed.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
