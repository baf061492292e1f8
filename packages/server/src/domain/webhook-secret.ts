/**
 * Webhook signing secrets the service generates: `whsec_` and 32 random bytes in base64url
 * (43 characters), 256 bits for HMAC-SHA256. The secret is kept as is (signing needs it),
 * returned once in the answer that generated it, and never again.
 */
export const webhookSecretPrefix = 'whsec_';

/**
 * @example
 * generateWebhookSecret(); // 'whsec_q3J0c8...' (49 characters)
 */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `${webhookSecretPrefix}${base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}
