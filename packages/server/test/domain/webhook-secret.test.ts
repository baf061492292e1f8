/** Generated webhook secrets: prefix, length, alphabet, and never the same twice. */
import { expect, it } from 'vitest';
import { generateWebhookSecret } from '../../src/domain/webhook-secret.ts';

it('generates whsec_ and 32 random bytes in base64url', () => {
  const secrets = new Set(Array.from({ length: 200 }, () => generateWebhookSecret()));
  expect(secrets.size).toBe(200);
  for (const secret of secrets) expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
});
