/**
 * Transport faults as answers of the engine: a connection reset, an answer whose body is cut
 * off, and a request that is never answered. The engine returns a `Response` for each, marked
 * here, and each way of serving the mock acts it out: MSW as a network error or a body stream
 * that errors (a `Response.error()` is MSW's network error), `mock.fetch` by rejecting as
 * `fetch` does, and the standalone mock on the socket itself (server/socket-faults.ts).
 */

/** The faults a scenario can inject (beside the error answers of `fail` and `unavailable`). */
export type FaultKind = 'networkError' | 'hang' | 'truncate';

/** What the marked answer stands for; the standalone mock writes it on the socket. */
export type Fault =
  | { kind: 'networkError' }
  | {
      kind: 'truncate';
      /** The whole body the application answered. */
      body: Uint8Array;
      /** How many of its bytes are sent before the connection is cut. */
      sent: number;
    };

const marks = new WeakMap<Response, Fault>();

/** The fault a Response of the engine stands for, if any. */
export function faultOf(response: Response): Fault | undefined {
  return marks.get(response);
}

/** A connection reset: MSW's network error (`fetch` rejects with a `TypeError`). */
export function networkError(): Response {
  const response = Response.error();
  marks.set(response, { kind: 'networkError' });
  return response;
}

/**
 * The application's answer with its status and headers, and a body that stops after `sent`
 * bytes with the error a socket closed mid-way gives `fetch` (undici's `TypeError:
 * terminated`). `Content-Length` announces the whole body, as the server had sent it.
 */
export function truncated(answer: Response, body: Uint8Array, sent: number): Response {
  const part = body.slice(0, sent);
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (part.byteLength > 0) controller.enqueue(part);
      },
      pull(controller) {
        controller.error(
          new TypeError('terminated', { cause: new Error('@ocs/mock: the answer was cut off (truncate)') }),
        );
      },
    },
    // No read-ahead: `pull` (the error) comes only when a reader asks for more than the part,
    // so the part reaches the client first. MSW tees the answer (a copy for its events), and
    // an error reaching a tee's branches would discard the part still queued in them.
    { highWaterMark: 0 },
  );
  const headers = new Headers(answer.headers);
  headers.set('Content-Length', String(body.byteLength));
  const response = new Response(stream, { status: answer.status, statusText: answer.statusText, headers });
  marks.set(response, { kind: 'truncate', body, sent });
  return response;
}

/** Where a cut falls by default: half the body, at least one byte short of it. */
export function defaultCut(length: number): number {
  return Math.min(Math.floor(length / 2), Math.max(length - 1, 0));
}

/**
 * Requests left unanswered (`hang`): each waits until its client gives up (the signal the
 * engine is given aborts: MSW aborts the request's when the client goes, ocs-mock's listener
 * also at the client's end of its socket: socket-faults.ts) or until the scenarios are
 * cleared, the mock reset or the server closed. No timer is involved, so nothing is left
 * behind after a test.
 */
export interface Hangs {
  /** Resolves when `signal` (its client gone) aborts or `releaseAll()` is called. */
  wait(signal: AbortSignal): Promise<void>;
  releaseAll(): void;
  /** How many requests are waiting. */
  readonly size: number;
}

export function hangs(): Hangs {
  const waiting = new Set<() => void>();
  return {
    wait(signal) {
      return new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          waiting.delete(done);
          resolve();
        };
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', done);
        waiting.add(done);
      });
    },
    releaseAll() {
      for (const done of [...waiting]) done();
    },
    get size() {
      return waiting.size;
    },
  };
}
