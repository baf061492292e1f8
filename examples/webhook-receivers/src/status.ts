/**
 * The HTTP status a receiver answers for a refused delivery. Signature problems are 401 (the
 * service only retries on non-2xx, so a forged or misconfigured request never looks handled);
 * a signed body that is not a valid event is 400. `parsed_body` means the receiver passed a
 * parsed object instead of the raw body: a bug in the receiver, so it surfaces as a 500.
 */
import { WebhookVerificationError } from '@ocs/sdk/webhooks';

export function statusFor(error: unknown): 400 | 401 {
  if (!(error instanceof WebhookVerificationError) || error.reason === 'parsed_body') throw error;
  return error.reason === 'invalid_json' || error.reason === 'invalid_payload' ? 400 : 401;
}
