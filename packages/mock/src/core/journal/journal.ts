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
import { type EntryEraser, type LeadRecord, leadEraser } from './erasure.ts';
import { redactedBody, redactedHeaders } from './redact.ts';
import type { OcsMockRequest, OcsMockRequests, RecordedRequest } from './types.ts';

/** The journal's default size. */
export const defaultJournalLimit = 1000;

/** A request recorded on arrival, to complete once. */
export interface PendingEntry {
  /** Records the answer given, reading its body: resolves to the answer to give instead. */
  answered(response: Response): Promise<Response>;
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
   * Records the request (reading a copy of its body; `url` is its URL, parsed once by the
   * engine); undefined when the journal is off.
   */
  begin(
    request: Request,
    url: URL,
    apiPath: string,
    operation: OperationInfo | undefined,
  ): Promise<PendingEntry | undefined>;
  /** Takes the lead, as it was before its erasure, out of every entry, including those in flight. */
  erase(lead: LeadRecord): void;
  clear(): void;
}

/**
 * A request as `begin` keeps it: the raw parts only. Its entry (`OcsMockRequest`) is made
 * when a test first reads it, and most never are: on ocs-mock under load, building every
 * entry at once (path parameters, query, ISO time, two lazily parsed bodies) was most of
 * what the journal cost a request. Once made, the entry is the slot's for good (reads return
 * the same object, which later events update) and the raw parts are let go.
 */
interface Slot {
  seq: number;
  method: string;
  apiPath: string;
  operation: OperationInfo | undefined;
  /** Credentials redacted at once: the request's own `Headers` may change after it is sent. */
  headers: Record<string, string>;
  url: URL | undefined;
  arrivedAt: Date;
  bodyText: string | undefined;
  response: { status: number; headers: Record<string, string>; text: string } | null;
  fault: FaultKind | null;
  durationMs: number | null;
  entry: OcsMockRequest | undefined;
  /** Erasures made while the entry was in flight, applied when it completes. */
  late: EntryEraser[];
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
    query: slot.url ? Object.fromEntries(slot.url.searchParams) : {},
    headers: slot.headers,
    body: undefined as unknown,
    response: slot.response && recordedResponse(slot.response),
    fault: slot.fault,
    time: slot.arrivedAt.toISOString(),
    durationMs: slot.durationMs,
  } as OcsMockRequest;
  if (slot.bodyText !== undefined) lazyJson(entry, 'body', slot.bodyText);
  slot.entry = entry;
  // Only the entry holds the request from now on (an erasure rewrites the entry alone).
  slot.apiPath = '';
  slot.headers = {};
  slot.url = undefined;
  slot.bodyText = undefined;
  slot.response = null;
  return entry;
}

/** `limit` checked by `createOcsMock` and `startMockServer` (mock-options.ts). */
export function createJournal(options: { limit?: number; now(): Date }): Journal {
  const limit = options.limit ?? defaultJournalLimit;
  let ring: Slot[] = [];
  let start = 0;
  let dropped = 0;
  let seq = 0;
  const inFlight = new Set<Slot>();

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
    ring = [];
    start = 0;
    dropped = 0;
    seq = 0;
    inFlight.clear();
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
    async begin(request, url, apiPath, operation) {
      if (limit === 0) return undefined;
      const started = performance.now();
      const slot: Slot = {
        seq: ++seq,
        method: request.method,
        apiPath,
        operation,
        headers: redactedHeaders(request.headers),
        url,
        arrivedAt: options.now(),
        bodyText: undefined,
        response: null,
        fault: null,
        durationMs: null,
        entry: undefined,
        late: [],
      };
      push(slot);
      inFlight.add(slot);
      // After it is in the ring, so that its place is its arrival; the body is read from a copy.
      // A GET's `body` is not even looked at: on ocs-mock that would build the request anew.
      if (!bodiless.has(request.method) && request.body !== null) {
        const text = await request.clone().text();
        if (slot.entry) lazyJson(slot.entry, 'body', text);
        else slot.bodyText = text;
      }
      const complete = (response: RawResponse | null, fault: FaultKind | null) => {
        if (!inFlight.delete(slot)) return; // cleared (reset) meanwhile
        const durationMs = Math.round((performance.now() - started) * 100) / 100;
        if (slot.entry || slot.late.length > 0) {
          const entry = entryOf(slot);
          entry.response = response && (recordedResponse(response) as never);
          entry.fault = fault;
          entry.durationMs = durationMs;
          for (const erase of slot.late) erase(entry);
        } else {
          slot.response = response;
          slot.fault = fault;
          slot.durationMs = durationMs;
        }
      };
      return {
        async answered(response) {
          if (nullBodyStatuses.has(response.status)) {
            complete(rawResponse(response, ''), null);
            return response;
          }
          // The API's own answers carry their text: recorded without reading the body, and
          // passed on untouched (on ocs-mock, written by @hono/node-server's fast path).
          const known = answerText(response);
          if (known !== undefined) {
            complete(rawResponse(response, known), null);
            return response;
          }
          // Read once (no copy of the stream), and given back whole as text: on ocs-mock,
          // @hono/node-server writes a Response built from a string and a plain init
          // without a stream (not from another Response, which it would read as one).
          const text = await response.text();
          complete(rawResponse(response, text), null);
          const { status, statusText, headers } = response;
          return new Response(text, { status, statusText, headers });
        },
        faulted(kind, answer) {
          const response = answer ? rawResponse(answer.response, new TextDecoder().decode(answer.body)) : null;
          complete(response, kind);
        },
        abandoned: () => complete(null, null),
        hanging() {
          slot.fault = 'hang';
          if (slot.entry) slot.entry.fault = 'hang';
        },
      };
    },
    erase(lead) {
      const entries = all();
      const eraser = leadEraser(lead, entries);
      for (const entry of entries) eraser(entry);
      for (const slot of inFlight) slot.late.push(eraser);
    },
    clear,
  };
}

type RawResponse = NonNullable<Slot['response']>;

/** The answer's parts the journal keeps; its headers read now (the `Response` may change after). */
function rawResponse(response: Response, text: string): RawResponse {
  return { status: response.status, headers: Object.fromEntries(response.headers), text };
}

/** Methods whose requests have no body. */
const bodiless = new Set(['GET', 'HEAD']);

/** Statuses whose answers have no body (Fetch's null body statuses). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

function recordedResponse(raw: RawResponse): NonNullable<OcsMockRequest['response']> {
  const recorded = { status: raw.status, headers: raw.headers, body: undefined };
  lazyJson(recorded, 'body', raw.text);
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
