/**
 * `diagnoseSignature`, on both builds: each cause of a failed verification is told apart
 * (no header, malformed header, whitespace around the secret, a body parsed and
 * re-serialized, no secret matched, a parsed object), and no answer holds the secret or the
 * signature the body should have had.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as nodeEntry from '../src/webhooks/node.ts';
import * as webEntry from '../src/webhooks/web.ts';
import { exampleEvent } from './support/event.ts';

const secret = 'whsec_diagnose_0123456789';
const event = { ...exampleEvent(), prospect_message: 'Très bien — send me a time ✓' };
const body = JSON.stringify(event);
const hmac = (key: string, data: string) => createHmac('sha256', key).update(data).digest('hex');
const signature = `sha256=${hmac(secret, body)}`;

describe.each([
  ['node (node:crypto)', nodeEntry],
  ['web (Web Crypto)', webEntry],
] as const)('diagnoseSignature, %s', (_name, api) => {
  /** The diagnosis, checked to keep every secret and every expected signature out of its message. */
  async function diagnose(input: Parameters<typeof api.diagnoseSignature>[0], secrets: string[] = [secret]) {
    const problem = await api.diagnoseSignature(input);
    const message = problem?.message ?? '';
    for (const key of secrets.flatMap((s) => [s, s.trim()])) {
      expect(message).not.toContain(key);
      expect(message).not.toContain(hmac(key, body));
      expect(message).not.toContain(hmac(key, body).slice(0, 16));
    }
    return problem;
  }

  it('finds nothing wrong with a good signature, or one over a body that is not an event', async () => {
    expect(await diagnose({ payload: body, signature, secret })).toBeUndefined();
    const text = 'not json';
    expect(await diagnose({ payload: text, signature: `sha256=${hmac(secret, text)}`, secret })).toBeUndefined();
  });

  it('no header: missing_signature', async () => {
    for (const none of [undefined, null, '', []]) {
      expect(await diagnose({ payload: body, signature: none, secret })).toMatchObject({
        name: 'WebhookVerificationError',
        reason: 'missing_signature',
      });
    }
  });

  it('a header of another form: malformed_signature', async () => {
    for (const bad of [signature.slice(7), `sha1=${'0'.repeat(40)}`, `${signature}0`, [signature, signature]]) {
      expect((await diagnose({ payload: body, signature: bad, secret }))?.reason).toBe('malformed_signature');
    }
  });

  it('whitespace around the secret: secret_whitespace, saying which secret while rotating', async () => {
    for (const spaced of [`${secret}\n`, ` ${secret}`, `\t${secret}\r\n`]) {
      const problem = await diagnose({ payload: body, signature, secret: spaced }, [spaced]);
      expect(problem).toBeInstanceOf(api.WebhookVerificationError);
      expect(problem?.reason).toBe('secret_whitespace');
      expect(problem?.message).toMatch(/matches only without the whitespace around it.*trim it/);
    }
    const rotating = ['whsec_new_secret_0123456', `${secret}\n`];
    const problem = await diagnose({ payload: body, signature, secret: rotating }, rotating);
    expect(problem?.reason).toBe('secret_whitespace');
    expect(problem?.message).toMatch(/The secret at index 1 matches only without the whitespace/);
  });

  it('a body parsed and serialized again: reserialized_body', async () => {
    const escaped = body.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    for (const reserialized of [
      JSON.stringify(event, null, 2),
      JSON.stringify(event, null, '\t'),
      `${body}\n`,
      escaped,
      new TextEncoder().encode(JSON.stringify(event, null, 1)),
    ]) {
      const problem = await diagnose({ payload: reserialized, signature, secret });
      expect(problem?.reason).toBe('reserialized_body');
      expect(problem?.message).toMatch(/parsed and serialized again: pass the raw bytes/);
    }
  });

  it('no secret matches: signature_mismatch, whether the body or the secret differs', async () => {
    const changed = JSON.stringify({ ...event, prospect_message: 'Not interested' });
    for (const input of [
      { payload: body, signature, secret: 'whsec_some_other_secret_0' },
      { payload: changed, signature, secret },
      // Whitespace that is not the cause: without it, the secret does not match either.
      { payload: body, signature, secret: 'whsec_some_other_secret_0\n' },
      // Re-serialized, and reordered: the compact form is not what was signed either.
      { payload: JSON.stringify(Object.fromEntries(Object.entries(event).reverse()), null, 2), signature, secret },
    ]) {
      const problem = await diagnose(input, [input.secret]);
      expect(problem?.reason).toBe('signature_mismatch');
      expect(problem?.message).toMatch(/does not match/);
    }
  });

  it('a parsed object: parsed_body', async () => {
    const problem = await diagnose({ payload: event as unknown as string, signature, secret });
    expect(problem?.reason).toBe('parsed_body');
  });

  it('reads a Request from a clone, leaving it readable', async () => {
    const request = new Request('https://receiver.test/hooks', {
      method: 'POST',
      body: JSON.stringify(event, null, 2),
    });
    expect((await diagnose({ payload: request, signature, secret }))?.reason).toBe('reserialized_body');
    expect(await request.text()).toBe(JSON.stringify(event, null, 2));
  });

  it('refuses a missing secret with a TypeError, as verifySignature does', async () => {
    await expect(api.diagnoseSignature({ payload: body, signature, secret: '' })).rejects.toThrow(TypeError);
  });
});
