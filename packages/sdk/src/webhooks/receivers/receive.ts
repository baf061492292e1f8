/**
 * A delivery's path through every receiver, whatever the framework: read the raw body,
 * verify, skip repeats, run `onEvent`, and choose the answer. Each adapter only says where
 * the body and headers are and how to write the answer.
 */
import { type RawBody, readBody } from '../body.ts';
import { createDeduplicator, type DedupeKey, type OnceResult } from '../dedupe.ts';
import { WebhookVerificationError } from '../errors.ts';
import { type HeadersLike, headerText, signatureFrom, signatureHeader } from '../signature.ts';
import type {
  ProspectResponseEvent,
  VerifyAndParseInput,
  VerifyAndParseOptions,
  VerifySignatureInput,
} from '../types.ts';
import { checkSecret } from '../verify.ts';
import { WebhookReceiverError } from './errors.ts';
import type { ReceiverOptions } from './options.ts';

/** The verifier of one build (`node:crypto` or Web Crypto). */
export interface Verifier {
  verifyAndParse<Event>(input: VerifyAndParseInput, options: VerifyAndParseOptions<Event>): Promise<Event>;
  diagnoseSignature(input: VerifySignatureInput): Promise<WebhookVerificationError | undefined>;
}

/** A request as the adapter found it. */
export interface Incoming<Request> {
  request: Request;
  method: string | undefined;
  headers: HeadersLike;
  /** The raw body; throws `parsed_body` when the framework parsed it, or a refusal. */
  body: () => RawBody | Promise<RawBody>;
}

/** What the receiver answers to a delivery: always JSON. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: { status: 'handled' | 'duplicate' } | { reason: string; message: string };
}

/** The status for a verification error: 401 for the signature, 400 for the event, 500 for a receiver bug. */
function statusOf(error: WebhookVerificationError): number {
  if (error.reason === 'parsed_body') return 500;
  return error.reason === 'invalid_json' || error.reason === 'invalid_payload' ? 400 : 401;
}

const describe = (value: unknown) =>
  value === '' ? 'an empty string' : Array.isArray(value) ? 'an array' : String(value);

/** Checks the options once, when the receiver is made: a missing secret is found at start-up. */
function checkOptions(options: ReceiverOptions<unknown, unknown>): void {
  try {
    checkSecret(options?.secret);
  } catch {
    throw new TypeError(
      `secret: expected a non-empty string or array of strings, got ${describe(options?.secret)}: is the environment variable that holds it set?`,
    );
  }
  if (typeof options.onEvent !== 'function')
    throw new TypeError('onEvent: expected a function, called with each event');
}

/** `onEvent`, the dedupe store or the schema threw: 500, so that the service retries. */
const failed = (cause: unknown) =>
  new WebhookReceiverError(
    'handler_failed',
    500,
    'Handling the event failed (see the receiver’s logs): the service retries the delivery.',
    { cause },
  );

const json = { 'content-type': 'application/json; charset=utf-8' };

/** Makes the function that takes a delivery to its answer. It never throws. */
export function createReceiver<Event = ProspectResponseEvent, Request = unknown>(
  verifier: Verifier,
  options: ReceiverOptions<Event, Request>,
): (incoming: Incoming<Request>) => Promise<Answer> {
  checkOptions(options as ReceiverOptions<unknown, unknown>);
  const { secret, schema, onEvent, dedupe = createDeduplicator() } = options;
  const report = (error: WebhookVerificationError | WebhookReceiverError, request: Request, status: number) => {
    try {
      if (options.onError) options.onError(error, request);
      else if (status >= 500) console.error('@ocs/sdk webhook receiver:', error);
    } catch (reportError) {
      // A logger that throws must not turn the answer into a crash.
      console.error('@ocs/sdk webhook receiver: onError threw', reportError);
    }
  };
  const refuse = (error: WebhookVerificationError | WebhookReceiverError, request: Request): Answer => {
    const status = error instanceof WebhookReceiverError ? error.status : statusOf(error);
    report(error, request, status);
    const headers: Record<string, string> = status === 405 ? { ...json, allow: 'POST' } : json;
    return { status, headers, body: { reason: error.reason, message: error.message } };
  };

  return async ({ request, method, headers, body: read }) => {
    if (method !== 'POST') {
      return refuse(new WebhookReceiverError('method_not_allowed', 405, 'Deliveries are POSTs.'), request);
    }
    // Unsigned: refused before its body is read, which may be large and is nobody's to read.
    if (!headerText(signatureFrom(headers))) {
      const message = `No ${signatureHeader} header: give the webhook a secret, and pass the request's headers.`;
      return refuse(new WebhookVerificationError('missing_signature', message), request);
    }
    let body: string | Uint8Array;
    try {
      body = await readBody(await read());
    } catch (error) {
      if (error instanceof WebhookVerificationError || error instanceof WebhookReceiverError) {
        return refuse(error, request);
      }
      const message = `The body could not be read: ${(error as Error)?.message}.`;
      return refuse(new WebhookReceiverError('body_unreadable', 400, message, { cause: error }), request);
    }

    let event: Event;
    try {
      event = await verifier.verifyAndParse({ payload: body, headers }, { secret, schema });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) return refuse(failed(error), request); // a schema that threw
      let failure = error;
      if (failure.reason === 'signature_mismatch') {
        // Which mistake it was, found only now that verification failed.
        failure =
          (await verifier.diagnoseSignature({ payload: body, signature: signatureFrom(headers), secret })) ?? failure;
      }
      return refuse(failure, request);
    }

    let outcome: OnceResult<unknown>;
    try {
      const handle = () => onEvent(event, request);
      // verifyAndParse checked `idempotency_key`, whatever type a schema gives the event.
      outcome = dedupe ? await dedupe.once(event as DedupeKey, handle) : { status: 'handled', result: await handle() };
    } catch (error) {
      return refuse(failed(error), request);
    }
    if (outcome.status === 'in_flight') {
      const message =
        'Another delivery of this event is being processed: this one is refused, so that the service retries it if that one fails.';
      return refuse(new WebhookReceiverError('in_flight', 409, message), request);
    }
    return { status: 200, headers: json, body: { status: outcome.status } };
  };
}
