/**
 * Raw HTTP for the tests of what Node's parser refuses or would answer bare (the reference
 * server's listener and `ocs-mock`'s, which is the same: `@ocs/server/http-server`): bytes
 * written to a socket, the first answer read back with its JSON body.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Sends raw bytes to the server at `url`; reads the first answer (the connection may stay open after it). */
export function rawExchange(url: string, bytes: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    const done = () => {
      const at = answer.indexOf('\r\n\r\n');
      if (at < 0) return false;
      const [statusLine = '', ...lines] = answer.slice(0, at).split('\r\n');
      const headers = new Headers();
      for (const line of lines)
        headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
      let rest = answer.slice(at + 4);
      if (headers.get('transfer-encoding') === 'chunked') {
        if (!rest.includes('\r\n0\r\n\r\n')) return false;
        let text = '';
        while (rest.length > 0) {
          const size = Number.parseInt(rest.slice(0, rest.indexOf('\r\n')), 16);
          if (!size) break;
          const start = rest.indexOf('\r\n') + 2;
          text += rest.slice(start, start + size);
          rest = rest.slice(start + size + 2);
        }
        rest = text;
      } else if (Buffer.byteLength(rest, 'latin1') < Number(headers.get('content-length'))) return false;
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest) });
      return true;
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      done();
    });
    socket.on('close', () => {
      if (!done()) reject(new Error(`no complete answer: ${JSON.stringify(answer)}`));
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}
