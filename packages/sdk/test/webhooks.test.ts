/**
 * The webhook verifier, on both entries (`node:crypto` and Web Crypto) run in Node: known-
 * answer vectors, every input type, rotation, every error reason, and the signed-request
 * helper. The browser and edge-runtime tests run the Web Crypto entry where it is meant to run.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import * as nodeEntry from '../src/webhooks/node.ts';
import * as webEntry from '../src/webhooks/web.ts';
import { ProspectResponseEvent as eventSchema } from '../src/zod.ts';
import { exampleEvent } from './support/event.ts';
import { signatureVectors, vectorBytes } from './support/webhook-vectors.ts';

const entries = [
  { name: 'node (node:crypto)', api: nodeEntry },
  { name: 'web (Web Crypto)', api: webEntry },
] as const;

const secret = 'whsec_test_0123456789abcdef';
const hmacHex = (key: string, body: string | Uint8Array) => createHmac('sha256', key).update(body).digest('hex');
const signatureOf = (body: string | Uint8Array, key = secret) => `sha256=${hmacHex(key, body)}`;

/** The same bytes in every form a receiver may hold them. */
function inputForms(bytes: Uint8Array): Array<[string, () => unknown]> {
  // A view into a larger buffer, at an offset: the verifier must honour byteOffset/byteLength.
  const padded = new Uint8Array(bytes.length + 16);
  padded.set(bytes, 7);
  return [
    ['Uint8Array', () => bytes.slice()],
    ['Uint8Array view at an offset', () => padded.subarray(7, 7 + bytes.length)],
    ['ArrayBuffer', () => bytes.slice().buffer],
    ['Buffer', () => Buffer.from(bytes)],
    ['DataView', () => new DataView(bytes.slice().buffer)],
    ['Request', () => new Request('https://receiver.test/hooks', { method: 'POST', body: bytes.slice() })],
  ];
}

/** Pseudo-random but repeatable bytes (xorshift), for vectors computed here with node:crypto. */
function bytesOf(length: number, seed: number): Uint8Array {
  let state = seed || 1;
  return Uint8Array.from({ length }, () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state & 0xff;
  });
}

describe('the test vectors', () => {
  it.each(signatureVectors.map((v) => [v.name, v] as const))('%s agrees with node:crypto', (_name, vector) => {
    expect(signatureOf(vectorBytes(vector), vector.secret)).toBe(vector.signature);
  });
});

describe('both entries', () => {
  it('export the same API', () => {
    expect(Object.keys(webEntry).sort()).toEqual(Object.keys(nodeEntry).sort());
    expect(nodeEntry.signatureHeader).toBe('X-Signature-256');
  });

  it('verify what the other signs', async () => {
    const body = JSON.stringify(exampleEvent());
    const signature = await nodeEntry.sign(body, secret);
    expect(await webEntry.sign(body, secret)).toBe(signature);
    expect(await webEntry.verifySignature({ payload: body, signature, secret })).toBe(true);
    expect(await nodeEntry.verifySignature({ payload: body, signature, secret })).toBe(true);
  });
});

describe('the web entry', () => {
  it('imports the HMAC key once per secret', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const key = 'whsec_imported_once_0123';
      const body = '{"event":"prospect_response","idempotency_key":"k"}';
      const signature = signatureOf(body, key);
      await Promise.all([1, 2, 3].map(() => webEntry.verifySignature({ payload: body, signature, secret: key })));
      await webEntry.verifySignature({ payload: body, signature, secret: key });
      expect(await webEntry.sign(body, key)).toBe(signature);
      expect(importKey).toHaveBeenCalledTimes(1);
    } finally {
      importKey.mockRestore();
    }
  });
});

describe.each(entries)('$name', ({ api }) => {
  describe('known-answer vectors', () => {
    it.each(signatureVectors.map((v) => [v.name, v] as const))('%s', async (_name, vector) => {
      const bytes = vectorBytes(vector);
      expect(await api.sign(bytes, vector.secret)).toBe(vector.signature);
      if (typeof vector.body === 'string') {
        expect(await api.sign(vector.body, vector.secret)).toBe(vector.signature);
        const ok = await api.verifySignature({
          payload: vector.body,
          signature: vector.signature,
          secret: vector.secret,
        });
        expect(ok).toBe(true);
      }
      for (const [form, make] of inputForms(bytes)) {
        const input = { payload: make() as Uint8Array, signature: vector.signature, secret: vector.secret };
        expect(await api.verifySignature(input), form).toBe(true);
        const wrongSecret = { ...input, payload: make() as Uint8Array, secret: `${vector.secret}!` };
        expect(await api.verifySignature(wrongSecret), form).toBe(false);
      }
    });

    it('match node:crypto on bodies of many lengths and secrets', async () => {
      for (const [i, length] of [0, 1, 55, 63, 64, 65, 127, 1000, 4096, 70_000].entries()) {
        const body = bytesOf(length, i + 1);
        const key = `secret-${'x'.repeat(i * 9)}-${i}`;
        const signature = signatureOf(body, key);
        expect(await api.sign(body, key)).toBe(signature);
        expect(await api.verifySignature({ payload: body, signature, secret: key })).toBe(true);
        const flipped = Uint8Array.from(body.length ? body : [0]);
        flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 1;
        expect(await api.verifySignature({ payload: flipped, signature, secret: key })).toBe(false);
      }
    });
  });

  describe('verifySignature', () => {
    const body = JSON.stringify(exampleEvent());
    const signature = signatureOf(body);

    it('accepts upper-case hex and surrounding whitespace', async () => {
      const upper = `sha256=${signature.slice(7).toUpperCase()}`;
      expect(await api.verifySignature({ payload: body, signature: upper, secret })).toBe(true);
      expect(await api.verifySignature({ payload: body, signature: ` ${signature}\t`, secret })).toBe(true);
    });

    it('answers false for a missing, malformed or wrong signature', async () => {
      for (const bad of [
        undefined,
        null,
        '',
        signature.slice(7),
        `sha1=${signature.slice(7)}`,
        `${signature}00`,
        signature.slice(0, -1),
        `sha256=${'g'.repeat(64)}`,
        `${signature}, ${signature}`,
        signatureOf(`${body} `),
      ]) {
        expect(await api.verifySignature({ payload: body, signature: bad, secret }), String(bad)).toBe(false);
      }
    });

    it('takes the header as Node gives it (an array when sent twice, which never verifies)', async () => {
      expect(await api.verifySignature({ payload: body, signature: [signature], secret })).toBe(true);
      expect(await api.verifySignature({ payload: body, signature: [signature, signature], secret })).toBe(false);
      expect(await api.verifySignature({ payload: body, signature: [], secret })).toBe(false);
    });

    it('accepts any of several secrets (rotation)', async () => {
      const [oldSecret, newSecret] = ['whsec_old_0123456789abcd', 'whsec_new_0123456789abcd'];
      const both = [oldSecret, newSecret];
      expect(await api.verifySignature({ payload: body, signature: signatureOf(body, oldSecret), secret: both })).toBe(
        true,
      );
      expect(await api.verifySignature({ payload: body, signature: signatureOf(body, newSecret), secret: both })).toBe(
        true,
      );
      const other = signatureOf(body, 'whsec_other_0123456789ab');
      expect(await api.verifySignature({ payload: body, signature: other, secret: both })).toBe(false);
    });

    it('verifies with each of many secrets, the same again, and none other (the node entry keeps a few keys)', async () => {
      // More secrets than the node entry keeps prepared keys for, each twice and out of
      // order: a key kept for one secret must never answer for another.
      const secrets = Array.from({ length: 9 }, (_, i) => `whsec_tenant_${i}_0123456789ab`);
      for (const i of [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 8, 3, 3]) {
        const mine = secrets[i] as string;
        const signed = signatureOf(body, mine);
        expect(await api.verifySignature({ payload: body, signature: signed, secret: mine }), mine).toBe(true);
        const neighbour = secrets[(i + 1) % secrets.length] as string;
        expect(await api.verifySignature({ payload: body, signature: signed, secret: neighbour }), mine).toBe(false);
      }
      const rotated = secrets.slice(2, 8);
      expect(
        await api.verifySignature({ payload: body, signature: signatureOf(body, secrets[7]), secret: rotated }),
      ).toBe(true);
      expect(
        await api.verifySignature({ payload: body, signature: signatureOf(body, secrets[8]), secret: rotated }),
      ).toBe(false);
    });

    it('refuses a missing secret with a TypeError', async () => {
      for (const bad of ['', [], [''], [secret, ''], undefined]) {
        await expect(
          api.verifySignature({ payload: body, signature, secret: bad as unknown as string }),
        ).rejects.toThrow(TypeError);
      }
    });

    it('says the secret is missing when verifyAndParse is called without options (from JavaScript)', async () => {
      const verifyAndParse = api.verifyAndParse as (input: unknown) => Promise<unknown>;
      await expect(verifyAndParse({ payload: body, signature })).rejects.toThrow(
        new TypeError('secret: expected a string or an array of strings'),
      );
    });

    it('throws parsed_body for a parsed object, and leaves a Request readable', async () => {
      const parsed = JSON.parse(body) as unknown as string;
      await expect(api.verifySignature({ payload: parsed, signature, secret })).rejects.toMatchObject({
        name: 'WebhookVerificationError',
        reason: 'parsed_body',
      });
      const request = new Request('https://receiver.test/hooks', { method: 'POST', body });
      expect(await api.verifySignature({ payload: request, signature, secret })).toBe(true);
      expect(await request.text()).toBe(body);
    });
  });

  describe('verifyAndParse', () => {
    const event = exampleEvent();
    const body = JSON.stringify(event);
    const signature = signatureOf(body);
    const request = (raw: BodyInit = body, headers: HeadersInit = { 'x-signature-256': signature }) =>
      new Request('https://receiver.test/hooks', { method: 'POST', body: raw, headers });

    it('returns the event from a Request, a body with headers, or a body with its signature', async () => {
      expect(await api.verifyAndParse(request(), { secret })).toEqual(event);
      // Node's req.headers (lower case), a record in any case, and Fetch Headers.
      for (const headers of [
        { 'x-signature-256': signature, 'content-type': 'application/json' },
        { 'X-SIGNATURE-256': signature },
        { 'x-signature-256': [signature] },
        new Headers({ 'X-Signature-256': signature }),
      ]) {
        expect(await api.verifyAndParse({ payload: Buffer.from(body), headers }, { secret })).toEqual(event);
      }
      expect(await api.verifyAndParse({ payload: body, signature }, { secret })).toEqual(event);
      expect(await api.verifyAndParse({ payload: request(), signature }, { secret })).toEqual(event);
    });

    it('accepts every raw body type', async () => {
      for (const [form, make] of inputForms(new TextEncoder().encode(body))) {
        expect(await api.verifyAndParse({ payload: make() as Uint8Array, signature }, { secret }), form).toEqual(event);
      }
    });

    it('accepts any of several secrets (rotation)', async () => {
      const rotated = request(body, { 'x-signature-256': signatureOf(body, 'whsec_previous_secret_01') });
      expect(await api.verifyAndParse(rotated, { secret: [secret, 'whsec_previous_secret_01'] })).toEqual(event);
    });

    const reasons: Array<[string, () => Promise<unknown>, string, RegExp]> = [
      [
        'no header on a Request',
        () => api.verifyAndParse(request(body, {}), { secret }),
        'missing_signature',
        /X-Signature-256/,
      ],
      [
        'no header in a record',
        () => api.verifyAndParse({ payload: body, headers: {} }, { secret }),
        'missing_signature',
        /secret/,
      ],
      [
        'signature undefined',
        () => api.verifyAndParse({ payload: body, signature: undefined }, { secret }),
        'missing_signature',
        /header/,
      ],
      [
        'a sha1 header',
        () => api.verifyAndParse(request(body, { 'x-signature-256': `sha1=${'0'.repeat(40)}` }), { secret }),
        'malformed_signature',
        /sha256=<64 hex digits>/,
      ],
      [
        'a header sent twice',
        () => api.verifyAndParse({ payload: body, headers: { 'x-signature-256': [signature, signature] } }, { secret }),
        'malformed_signature',
        /sha256=/,
      ],
      [
        'a wrong secret',
        () => api.verifyAndParse(request(), { secret: 'whsec_wrong_0123456789ab' }),
        'signature_mismatch',
        /check the secret/,
      ],
      [
        'a re-serialised body',
        () => api.verifyAndParse({ payload: JSON.stringify(event, null, 2), signature }, { secret }),
        'signature_mismatch',
        /exactly as received/,
      ],
      [
        'a parsed object as payload',
        () => api.verifyAndParse({ payload: event as unknown as string, signature }, { secret }),
        'parsed_body',
        /before JSON parsing/,
      ],
      [
        'the parsed event as input',
        () => api.verifyAndParse(event as unknown as Request, { secret }),
        'parsed_body',
        /got object/,
      ],
      [
        'the raw body string as input, without its headers',
        () => api.verifyAndParse(body as unknown as Request, { secret }),
        'missing_signature',
        /No X-Signature-256 header/,
      ],
      [
        'nothing as input',
        () => api.verifyAndParse(undefined as unknown as Request, { secret }),
        'parsed_body',
        /got undefined/,
      ],
      ['null as input', () => api.verifyAndParse(null as unknown as Request, { secret }), 'parsed_body', /got null/],
      [
        'an undefined body',
        () => api.verifyAndParse({ payload: undefined as unknown as string, signature }, { secret }),
        'parsed_body',
        /got undefined/,
      ],
      [
        'a Request already read',
        async () => {
          const r = request();
          await r.text();
          return api.verifyAndParse(r, { secret });
        },
        'parsed_body',
        /read Request/,
      ],
      [
        'a signed non-JSON body',
        () => api.verifyAndParse({ payload: 'not json', signature: signatureOf('not json') }, { secret }),
        'invalid_json',
        /not valid JSON/,
      ],
      [
        'signed bytes that are not UTF-8',
        () =>
          api.verifyAndParse(
            { payload: Uint8Array.of(0x22, 0xff, 0x22), signature: signatureOf(Uint8Array.of(0x22, 0xff, 0x22)) },
            { secret },
          ),
        'invalid_json',
        /JSON/,
      ],
      [
        'signed JSON of another event',
        () =>
          api.verifyAndParse(
            {
              payload: '{"event":"ping","idempotency_key":"k"}',
              signature: signatureOf('{"event":"ping","idempotency_key":"k"}'),
            },
            { secret },
          ),
        'invalid_payload',
        /prospect_response/,
      ],
      [
        'signed JSON without idempotency_key',
        () =>
          api.verifyAndParse(
            { payload: '{"event":"prospect_response"}', signature: signatureOf('{"event":"prospect_response"}') },
            { secret },
          ),
        'invalid_payload',
        /idempotency_key/,
      ],
      [
        'signed JSON null',
        () => api.verifyAndParse({ payload: 'null', signature: signatureOf('null') }, { secret }),
        'invalid_payload',
        /prospect_response/,
      ],
    ];

    it.each(reasons)('rejects %s with reason %s', async (_label, run, reason, message) => {
      const error = await run().then(
        () => expect.fail('expected a WebhookVerificationError'),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(api.WebhookVerificationError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ name: 'WebhookVerificationError', reason });
      expect((error as Error).message).toMatch(message);
    });

    it('keeps the JSON error as the cause of invalid_json', async () => {
      const error = await api.verifyAndParse({ payload: '{', signature: signatureOf('{') }, { secret }).catch((e) => e);
      expect(error.reason).toBe('invalid_json');
      expect(error.cause).toBeInstanceOf(SyntaxError);
    });

    it('keeps unknown fields and unknown values without a schema', async () => {
      const future = {
        ...event,
        new_field: { nested: true },
        ai_response: { ...event.ai_response, conversation_status: 'closed_rescheduled' },
      };
      const raw = JSON.stringify(future);
      expect(await api.verifyAndParse({ payload: raw, signature: signatureOf(raw) }, { secret })).toEqual(future);
    });

    describe('with the generated zod schema', () => {
      it('validates and returns the event, unknown fields and values kept', async () => {
        const future = { ...event, new_field: 1, ai_response: { ...event.ai_response, sentiment: 'enthusiastic' } };
        const raw = JSON.stringify(future);
        const parsed = await api.verifyAndParse(
          { payload: raw, signature: signatureOf(raw) },
          { secret, schema: eventSchema },
        );
        expect(parsed).toEqual(future);
        expect(parsed.ai_response.sentiment).toBe('enthusiastic');
      });

      it('rejects an event that breaks the schema with invalid_payload and the issues', async () => {
        const broken = JSON.stringify({ ...event, channel: 'fax', sequence_lead_id: 'not-a-uuid' });
        const error = await api
          .verifyAndParse({ payload: broken, signature: signatureOf(broken) }, { secret, schema: eventSchema })
          .catch((e) => e);
        expect(error).toBeInstanceOf(api.WebhookVerificationError);
        expect(error.reason).toBe('invalid_payload');
        expect(error.message).toMatch(/channel/);
        expect(error.message).toMatch(/sequence_lead_id/);
        expect(error.issues.map((issue: { path: PropertyKey[] }) => issue.path.join('.'))).toEqual(
          expect.arrayContaining(['channel', 'sequence_lead_id']),
        );
      });
    });
  });

  describe('createSignedRequest', () => {
    it('builds a POST the verifier accepts, with the body serialised once', async () => {
      const event = exampleEvent();
      const request = await api.createSignedRequest('https://receiver.test/hooks', event, secret, {
        headers: { 'user-agent': 'receiver-test' },
      });
      expect(request.method).toBe('POST');
      expect(request.headers.get('content-type')).toBe('application/json');
      expect(request.headers.get('user-agent')).toBe('receiver-test');
      const raw = await request.clone().text();
      expect(raw).toBe(JSON.stringify(event));
      expect(request.headers.get('x-signature-256')).toBe(signatureOf(raw));
      expect(await api.verifyAndParse(request, { secret })).toEqual(event);
    });

    it('signs a raw body as given', async () => {
      const raw = '{"event":"prospect_response",  "idempotency_key":"k"}';
      for (const body of [raw, new TextEncoder().encode(raw), new TextEncoder().encode(raw).buffer]) {
        const request = await api.createSignedRequest(new URL('https://receiver.test/hooks'), body, secret);
        expect(await request.clone().text()).toBe(raw);
        expect(request.headers.get('x-signature-256')).toBe(signatureOf(raw));
      }
    });
  });
});
