/**
 * The request journal: every request the mock serves under its base URL, recorded when it
 * arrives (so the order is the order of arrival, and a test sees a request its client sent
 * even while it hangs) and completed with the answer or the fault. A ring of the last
 * `limit` entries with a count of those dropped; `clear()` on every reset.
 *
 * An erasure (`DELETE /v1/leads/{id}`) rewrites every entry kept, and reaches the entries
 * still in flight when they complete: an answer made before the erasure and recorded after it
 * is erased too.
 */
import { answerText, type OperationInfo } from '@ocs/server';
import type { OperationId } from '../api-types.ts';
import type { FaultKind } from '../faults.ts';
import { operationById, pathParams } from '../operations.ts';
import { headerRecord } from '../header-record.ts';
import { bodyNotKept, declaresBodyOverLimit, textWithin } from './body-limit.ts';
import { type EntryEraser, type LeadConversation, type LeadRecord, leadEraser } from './erasure.ts';
import { redactedBody, redactedHeaderLines, redactedHeaders } from './redact.ts';
import type { OcsMockRequest, OcsMockRequests, RecordedRequest } from './types.ts';

/** The journal's default size. */
export const defaultJournalLimit = 1000;

/** A request recorded on arrival, to complete once. */
export interface PendingEntry {
  /**
   * Set while the request's body is read from a copy (a request that has one, not declared
   * over the API's body limit; read no further than that limit): the engine awaits it before
   * the request goes on. Undefined otherwise, so that a GET costs no promise and no turn of
   * the microtask queue (begin is synchronous for it).
   */
  readonly reading: Promise<void> | undefined;
  /**
   * Records the answer given: the answer to give instead, or a promise of it when its body
   * had to be read (an answer that is not the API's own). The API's own answers are
   * recorded synchronously: no promise, no turn of the microtask queue per request.
   */
  answered(response: Response): Response | Promise<Response>;
  /** A fault: no answer (`networkError`, `hang`), or the answer it cut off (`truncate`). */
  faulted(kind: FaultKind, answer?: { response: Response; body: Uint8Array }): void;
  /** No answer was made (an override threw): the entry stays without one. */
  abandoned(): void;
  /** The request hangs: `fault` says so at once, `durationMs` once it ends (`faulted('hang')`). */
  hanging(): void;
}

export interface Journal {
  readonly api: OcsMockRequests;
  /** Whether anything is recorded (`limit` > 0). */
  readonly enabled: boolean;
  /**
   * Records the request (its body read from a copy: await `reading` when set; `search` is its
   * URL's query, as `URL.search`, read once by the engine); undefined when the journal is off.
   */
  begin(
    request: Request,
    search: string,
    apiPath: string,
    operation: OperationInfo | undefined,
  ): PendingEntry | undefined;
  /**
   * Takes the lead, as it was before its erasure, out of every entry, including those in
   * flight; `conversation` (its replies' and messages' texts, its enrolments) was read before too.
   */
  erase(lead: LeadRecord, conversation?: LeadConversation): void;
  clear(): void;
}

/**
 * Where the standalone mock's listener leaves a request's header lines (Node's `rawHeaders`:
 * name, value, name, value...) on the `Request` it hands on: a property of the request (not a
 * WeakMap: see socket-faults.ts). @hono/node-server's `Request` reads single headers from
 * Node's own parsed headers and builds a Fetch `Headers` only when they are listed; listing
 * them on arrival, for the journal alone, built one per request (a `Headers`, an `append`
 * with its checks per line, a sort): about a tenth of what the journal cost a request on
 * ocs-mock (profiled under load). The journal keeps Node's array instead (nothing writes to
 * it; a copy when it holds credentials, redacted) and builds the same `Headers` from it when the entry is first read,
 * so an erasure or a read sees what the request's `Headers` listed (test/standalone-journal.test.ts).
 *
 * Only the request the listener made carries the lines: a layer that made another `Request`
 * (with other headers) hands on an object without them, whose `Headers` is then read at once.
 * No layer between the listener and the journal writes to the request's headers.
 */
const headerLinesKey = Symbol('ocs-mock.headerLines');

type LinedRequest = Request & { [headerLinesKey]?: readonly string[] };

/** Called by the standalone mock's listener with Node's `rawHeaders`, from which `request.headers` is made. */
export function recordHeaderLines(request: Request, rawHeaders: readonly string[]): void {
  // Credentials redacted at once, as the `Headers` of an in-process request are: the slot
  // outlives the request (a thousand requests), and a heap snapshot, a core dump or a debugger
  // of the test process would find the raw key in it until the entry was first read.
  (request as LinedRequest)[headerLinesKey] = redactedHeaderLines(rawHeaders);
}

/**
 * The `Headers` @hono/node-server makes from the lines (its `materializeHeaders`: pseudo-headers
 * skipped). It never throws: it runs when an entry is first read, or erased, long after the
 * request, and one line `Headers` refuses (a NUL in a value, which Node's parser lets through
 * under `--insecure-http-parser`) would make every read and every erasure of the journal
 * throw. Such a value is kept without the characters `Headers` refuses; a name it refuses is left out.
 */
function headersOfLines(lines: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i] as string;
    if (name.startsWith(':')) continue;
    const value = lines[i + 1] as string;
    try {
      headers.append(name, value);
    } catch {
      try {
        headers.append(name, value.replace(/[\0\r\n]/g, ''));
      } catch {
        // A name that is no header name: nothing of it to list.
      }
    }
  }
  return headers;
}

/**
 * A request as `begin` keeps it: the raw parts only. Its entry (`OcsMockRequest`) is made
 * when a test first reads it, and most never are: on ocs-mock under load, building every
 * entry at once (path parameters, query, ISO time, two lazily parsed bodies) was most of
 * what the journal cost a request. Once made, the entry is the slot's for good (reads return
 * the same object, which later events update) and the raw parts are let go.
 *
 * A slot lives through a thousand requests (the default limit) and so outlives the young
 * generation: every object it holds is copied by the collector, then collected in the old
 * generation. It holds few: strings and numbers, not the URL or a `Date`.
 */
interface Slot {
  seq: number;
  method: string;
  apiPath: string;
  operation: OperationInfo | undefined;
  /** Credentials redacted at once: the request's own `Headers` may change after it is sent. */
  headers: Record<string, string> | undefined;
  /**
   * Or the listener's header lines (recordHeaderLines), their credentials redacted on arrival,
   * listed when the entry is made.
   */
  headerLines: readonly string[] | undefined;
  /** The URL's query, `?` included (as `URL.search`). */
  search: string;
  /** Milliseconds since the epoch, by the mock's clock. */
  arrivedAt: number;
  /** At most the API's body limit of text, or `bodyNotKept` for a body over it (body-limit.ts). */
  bodyText: string | undefined;
  /** The answer recorded (its parts in the slot itself, one object fewer to keep): `null` for none. */
  responseHeaders: Record<string, string> | null;
  status: number;
  responseText: string;
  fault: FaultKind | null;
  /** In hundredths of a millisecond: a small integer, which V8 stores in the field itself, not boxed. */
  durationCs: number | null;
  /** Whether it is complete (answered, faulted or abandoned); a cleared slot counts as complete. */
  done: boolean;
  entry: OcsMockRequest | undefined;
  /** Erasures made while the entry was in flight, applied when it completes. */
  late: EntryEraser[] | undefined;
}

/** The slot's entry, made on first read. */
function entryOf(slot: Slot): OcsMockRequest {
  if (slot.entry) return slot.entry;
  const { operation, apiPath } = slot;
  const entry = {
    seq: slot.seq,
    operationId: operation?.operationId ?? null,
    method: slot.method,
    path: `/v1${apiPath}`,
    params: operation ? pathParams(operation.path, apiPath) : {},
    // As `url.searchParams` reads it (the search without its `?`).
    query: Object.fromEntries(new URLSearchParams(slot.search)),
    headers: slot.headers ?? redactedHeaders(headersOfLines(slot.headerLines ?? [])),
    body: undefined as unknown,
    response: slot.responseHeaders && recordedResponse(slot.status, slot.responseHeaders, slot.responseText),
    fault: slot.fault,
    time: new Date(slot.arrivedAt).toISOString(),
    durationMs: slot.durationCs === null ? null : slot.durationCs / 100,
  } as OcsMockRequest;
  if (slot.bodyText !== undefined) lazyJson(entry, 'body', slot.bodyText);
  slot.entry = entry;
  // Only the entry holds the request from now on (an erasure rewrites the entry alone).
  slot.apiPath = '';
  slot.headers = undefined;
  slot.headerLines = undefined;
  slot.search = '';
  slot.bodyText = undefined;
  slot.responseHeaders = null;
  slot.responseText = '';
  return entry;
}

/** `limit` checked by `createOcsMock` and `startMockServer` (mock-options.ts). */
export function createJournal(options: { limit?: number; now(): Date }): Journal {
  const limit = options.limit ?? defaultJournalLimit;
  let ring: Slot[] = [];
  let start = 0;
  let dropped = 0;
  let seq = 0;

  const slots = (): Slot[] => [...ring.slice(start), ...ring.slice(0, start)];
  const all = (): OcsMockRequest[] => slots().map(entryOf);
  const push = (slot: Slot) => {
    if (ring.length < limit) ring.push(slot);
    else {
      ring[start] = slot;
      start = (start + 1) % limit;
      dropped += 1;
    }
  };
  const clear = () => {
    // A request in flight completes into its slot, which no read reaches any more.
    for (const slot of ring) slot.done = true;
    ring = [];
    start = 0;
    dropped = 0;
    seq = 0;
  };
  const ofOperation = <Id extends OperationId>(operationId: Id) => {
    operationById(operationId); // a clear error for an unknown id (JavaScript callers)
    return slots()
      .filter((slot) => slot.operation?.operationId === operationId)
      .map(entryOf) as Array<RecordedRequest<Id>>;
  };

  const api: OcsMockRequests = {
    all,
    of: ofOperation,
    last: ((operationId?: OperationId) => {
      const entries = operationId === undefined ? all() : ofOperation(operationId);
      return entries[entries.length - 1];
    }) as OcsMockRequests['last'],
    get dropped() {
      return dropped;
    },
    limit,
    clear,
  };

  return {
    api,
    enabled: limit > 0,
    begin(request, search, apiPath, operation) {
      if (limit === 0) return undefined;
      const started = performance.now();
      const lines = (request as LinedRequest)[headerLinesKey];
      const slot: Slot = {
        seq: ++seq,
        method: request.method,
        apiPath,
        operation,
        headers: lines ? undefined : redactedHeaders(request.headers),
        headerLines: lines,
        search,
        arrivedAt: options.now().getTime(),
        bodyText: undefined,
        responseHeaders: null,
        status: 0,
        responseText: '',
        fault: null,
        durationCs: null,
        done: false,
        entry: undefined,
        late: undefined,
      };
      push(slot);
      // After it is in the ring, so that its place is its arrival; the body is read from a copy.
      // A GET's `body` is not even looked at: on ocs-mock that would build the request anew.
      const reading = !bodiless.has(request.method) && request.body !== null ? readBody(request, slot) : undefined;
      return new Pending(slot, started, reading);
    },
    erase(lead, conversation) {
      const entries = all();
      const eraser = leadEraser(lead, entries, conversation);
      for (const entry of entries) eraser(entry);
      // A slot dropped from the ring while in flight is never read again: only the ring's count.
      for (const slot of ring) if (!slot.done) (slot.late ??= []).push(eraser);
    },
    clear,
  };
}

/**
 * Reads the request's body from a copy into the slot, no more of it than the API accepts
 * (body-limit.ts): a body declared over the limit is not read at all (no promise: the
 * application's 413 goes out at once), one that passes it while read is dropped; either is
 * recorded as `bodyNotKept`.
 */
function readBody(request: Request, slot: Slot): Promise<void> | undefined {
  if (declaresBodyOverLimit(request)) {
    slot.bodyText = bodyNotKept;
    return undefined;
  }
  return textWithin(request.clone().body as ReadableStream<Uint8Array>).then((text) => {
    const kept = text ?? bodyNotKept;
    if (slot.entry) lazyJson(slot.entry, 'body', kept);
    else slot.bodyText = kept;
  });
}

/**
 * The `PendingEntry` of a slot: one object per request, its methods shared (not five
 * closures made for every request, most of them never called).
 */
class Pending implements PendingEntry {
  readonly #slot: Slot;
  /** `performance.now()` on arrival. */
  readonly #started: number;
  readonly reading: Promise<void> | undefined;

  constructor(slot: Slot, started: number, reading: Promise<void> | undefined) {
    this.#slot = slot;
    this.#started = started;
    this.reading = reading;
  }

  /**
   * Records the answer (`response`, its body's `text`; null for none) or the fault. The
   * answer's headers are read now: the `Response` may change after (ocs-mock's CORS layer
   * adds its own to it).
   */
  #complete(response: Response | null, text: string, fault: FaultKind | null): void {
    const slot = this.#slot;
    if (slot.done) return; // cleared (reset) meanwhile
    slot.done = true;
    const durationCs = Math.round((performance.now() - this.#started) * 100);
    const headers = response && headerRecord(response.headers);
    if (slot.entry || slot.late) {
      const entry = entryOf(slot);
      entry.response = response && headers && (recordedResponse(response.status, headers, text) as never);
      entry.fault = fault;
      entry.durationMs = durationCs / 100;
      for (const erase of slot.late ?? []) erase(entry);
      slot.late = undefined;
    } else {
      if (response && headers) {
        slot.status = response.status;
        slot.responseHeaders = headers;
        slot.responseText = text;
      }
      slot.fault = fault;
      slot.durationCs = durationCs;
    }
  }

  answered(response: Response): Response | Promise<Response> {
    if (nullBodyStatuses.has(response.status)) {
      this.#complete(response, '', null);
      return response;
    }
    // The API's own answers carry their text: recorded without reading the body, and
    // passed on untouched (on ocs-mock, written by @hono/node-server's fast path).
    const known = answerText(response);
    if (known !== undefined) {
      this.#complete(response, known, null);
      return response;
    }
    return this.#readAnswer(response);
  }

  /**
   * Read once (no copy of the stream), and given back whole as text: on ocs-mock,
   * @hono/node-server writes a Response built from a string and a plain init without a
   * stream (not from another Response, which it would read as one).
   */
  async #readAnswer(response: Response): Promise<Response> {
    const text = await response.text();
    this.#complete(response, text, null);
    const { status, statusText, headers } = response;
    return new Response(text, { status, statusText, headers });
  }

  faulted(kind: FaultKind, answer?: { response: Response; body: Uint8Array }): void {
    if (answer) this.#complete(answer.response, new TextDecoder().decode(answer.body), kind);
    else this.#complete(null, '', kind);
  }

  abandoned(): void {
    this.#complete(null, '', null);
  }

  hanging(): void {
    const slot = this.#slot;
    slot.fault = 'hang';
    if (slot.entry) slot.entry.fault = 'hang';
  }
}

/** Methods whose requests have no body. */
const bodiless = new Set(['GET', 'HEAD']);

/** Statuses whose answers have no body (Fetch's null body statuses). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

function recordedResponse(
  status: number,
  headers: Record<string, string>,
  text: string,
): NonNullable<OcsMockRequest['response']> {
  const recorded = { status, headers, body: undefined };
  lazyJson(recorded, 'body', text);
  return recorded as NonNullable<OcsMockRequest['response']>;
}

/**
 * `target[key]`: the body `text`, parsed (and its secrets redacted: redact.ts) when first read. Most
 * entries are never read: keeping the text, one string, rather than the parsed objects
 * spares every request the parse and the collector thousands of live objects (a page of
 * leads is hundreds). An enumerable property like any other for `JSON.stringify` and
 * `toEqual`; assigning to it (the erasure does) replaces the value.
 */
function lazyJson(target: object, key: string, text: string): void {
  let pending: string | undefined = text;
  let value: unknown;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      if (pending !== undefined) {
        value = redactedBody(pending);
        pending = undefined;
      }
      return value;
    },
    set(next: unknown) {
      pending = undefined;
      value = next;
    },
  });
}
