/**
 * Why a signature fails. `verifyAndParse` stays small and fast (it has a size budget, and
 * runs on every delivery), so it only says `signature_mismatch`; this runs after a failure,
 * and tells apart the two mistakes receivers make most: a secret with whitespace around it,
 * and a body parsed and serialized again. Neither the secret nor the expected signature
 * appears in what it returns.
 */
import { bodyText, readBody } from './body.ts';
import { WebhookVerificationError } from './errors.ts';
import { headerText, parseSignature } from './signature.ts';
import type { VerifySignatureInput } from './types.ts';
import { type Check, checkSecret, matches, verifyAndParseWith } from './verify.ts';

/**
 * The body as `JSON.stringify` writes it, when it is JSON written another way (indented,
 * spaced, with escapes), else undefined. The service signs `JSON.stringify` of the event, so
 * a body that only matches in this form was re-serialized after the signature was made.
 */
function compactForm(body: string | Uint8Array): string | undefined {
  try {
    const text = bodyText(body);
    const compact = JSON.stringify(JSON.parse(text));
    return compact === text ? undefined : compact;
  } catch {
    return undefined;
  }
}

/** Refused before any signature is computed, or accepted: nothing more to find. */
const settled = (failure: WebhookVerificationError | undefined) =>
  failure && failure.reason !== 'invalid_json' && failure.reason !== 'invalid_payload' ? failure : undefined;

export async function diagnoseSignatureWith(
  check: Check,
  { payload, signature, secret }: VerifySignatureInput,
): Promise<WebhookVerificationError | undefined> {
  checkSecret(secret);
  let body: string | Uint8Array;
  try {
    body = await readBody(payload, true);
  } catch (error) {
    return error as WebhookVerificationError; // parsed_body
  }
  // The header checks, and their errors, are verifyAndParse's own. invalid_json and
  // invalid_payload come after the signature matched: the signature is not what is wrong.
  const failure = await verifyAndParseWith(check, { payload: body, signature }, { secret }).then(
    () => undefined,
    (error: WebhookVerificationError) => error,
  );
  if (failure?.reason !== 'signature_mismatch') return settled(failure);

  const hex = parseSignature(headerText(signature) as string) as string;
  const secrets = typeof secret === 'string' ? [secret] : secret;
  for (const [index, candidate] of secrets.entries()) {
    const trimmed = candidate.trim();
    if (trimmed && trimmed !== candidate && (await check(trimmed, body, hex))) {
      const which = secrets.length > 1 ? ` at index ${index}` : '';
      return new WebhookVerificationError(
        'secret_whitespace',
        `The secret${which} matches only without the whitespace around it (a newline from a file or an env var?): trim it.`,
      );
    }
  }
  const compact = compactForm(body);
  if (compact !== undefined && (await matches(check, secret, compact, hex))) {
    return new WebhookVerificationError(
      'reserialized_body',
      'The body is the signed JSON parsed and serialized again: pass the raw bytes received, before any JSON parser.',
    );
  }
  return failure;
}
