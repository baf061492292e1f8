/**
 * A header's values line by line, as the request carried them. A Fetch `Headers` joins a
 * header sent on several lines into one value (`Idempotency-Key: a` and `Idempotency-Key: b`
 * read as `a, b`), and so does Node's `IncomingMessage.headers` for most names; `a, b` is
 * itself a valid key, so nothing that reads the joined value can tell two keys from one.
 * Only the listener sees the lines (`rawHeaders`): it records them on the request's `Headers`
 * (`withHeaderLines`), and what reads a header the API takes once asks `headerValues`, which
 * gives one value per line, so that a repeated header is refused rather than merged.
 *
 * A request made in process (the mock behind MSW, the tests, a browser) has no lines
 * recorded: its `Headers` is all there is, and `fetch` cannot send a header twice anyway.
 *
 * The lines are kept on the `Headers` object itself, under a symbol, rather than in a
 * `WeakMap`: a map entry per request is work for every young-generation collection (the
 * `answerText` property on responses was moved out of a `WeakMap` for the same reason). Only
 * a reference to Node's array is stored; it is read only when a header asked for holds a
 * comma, the mark of lines joined.
 */

const linesKey = Symbol('ocs.headerLines');

type LinedHeaders = Headers & { [linesKey]?: readonly string[] };

/** Records a request's header lines: Node's `rawHeaders` (name, value, name, value, ...). */
export function recordHeaderLines(headers: Headers, rawHeaders: readonly string[]): void {
  (headers as LinedHeaders)[linesKey] = rawHeaders;
}

/**
 * Every value of header `name`, one per line it arrived on; `[]` when it is absent. Without
 * recorded lines, or with one line, it is `[headers.get(name)]`: exactly what was read before.
 */
export function headerValues(headers: Headers, name: string): string[] {
  const joined = headers.get(name);
  if (joined === null) return [];
  const raw = (headers as LinedHeaders)[linesKey];
  // Lines are always joined with ", ": a value without a comma came on one line, the case of
  // nearly every request, which then costs no look at the lines.
  if (raw === undefined || !joined.includes(',')) return [joined];
  const lower = name.toLowerCase();
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const lineName = raw[i] as string;
    if (lineName.length === lower.length && lineName.toLowerCase() === lower) {
      // As `Headers` reads a value: without the spaces and tabs around it.
      values.push((raw[i + 1] as string).replace(/^[ \t]+|[ \t]+$/g, ''));
    }
  }
  return values.length > 1 ? values : [joined];
}

/** What @hono/node-server hands a fetch callback beside the request (its `HttpBindings`). */
export interface NodeBindings {
  incoming: { rawHeaders: string[] };
}

/**
 * A fetch callback for @hono/node-server (`getRequestListener`, `serve`) that records each
 * request's header lines before `fetch` answers it. Typed structurally, so this file stays
 * free of Node imports (the mock imports it from the web-standard entry).
 */
export function withHeaderLines<Env extends NodeBindings, Answer>(
  fetch: (request: Request, env: Env) => Answer,
): (request: Request, env: Env) => Answer {
  return (request, env) => {
    recordHeaderLines(request.headers, env.incoming.rawHeaders);
    return fetch(request, env);
  };
}
