/** Types of the webhook API: both entries alike, the event typed from the document. */
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { components } from '../src/generated/openapi.ts';
import type * as nodeEntry from '../src/webhooks/node.ts';
import * as node from '../src/webhooks/node.ts';
import type * as webEntry from '../src/webhooks/web.ts';
import { ProspectResponseEvent as eventSchema } from '../src/zod.ts';

describe('@ocs/sdk/webhooks types', () => {
  it('are the same on both entries', () => {
    expectTypeOf<typeof nodeEntry>().toEqualTypeOf<typeof webEntry>();
  });

  it('type the parsed event from the document, open enums included', async () => {
    const event = await node.verifyAndParse(new Request('https://receiver.test'), { secret: 's' });
    expectTypeOf(event).toEqualTypeOf<components['schemas']['ProspectResponseEvent']>();
    expectTypeOf(event.idempotency_key).toEqualTypeOf<string>();
    expectTypeOf<'closed_won'>().toExtend<NonNullable<typeof event.ai_response.conversation_status>>();
    expectTypeOf<'something new'>().toExtend<NonNullable<typeof event.ai_response.conversation_status>>();
  });

  it('type the event from the schema when one is passed', async () => {
    const event = await node.verifyAndParse(new Request('https://receiver.test'), { secret: 's', schema: eventSchema });
    expectTypeOf(event).toEqualTypeOf<ProspectResponseEventOut>();
  });

  it('accept the inputs receivers hold', () => {
    expectTypeOf(node.verifyAndParse).toBeCallableWith(
      { payload: Buffer.from(''), headers: { 'x-signature-256': 's' } },
      { secret: ['a', 'b'] },
    );
    expectTypeOf(node.verifyAndParse).toBeCallableWith(
      { payload: new ArrayBuffer(0), headers: new Headers() },
      { secret: 'a' },
    );
    expectTypeOf(node.verifyAndParse).toBeCallableWith({ payload: 'raw', signature: null }, { secret: 'a' });
    const nodeHeaders: IncomingHttpHeaders = {};
    expectTypeOf(node.verifySignature).toBeCallableWith({
      payload: Buffer.from(''),
      signature: nodeHeaders['x-signature-256'],
      secret: 'a',
    });
    expectTypeOf(node.verifySignature).returns.resolves.toEqualTypeOf<boolean>();
    expectTypeOf(node.sign).returns.resolves.toEqualTypeOf<string>();
    expectTypeOf<node.WebhookVerificationReason>().toEqualTypeOf<
      | 'missing_signature'
      | 'malformed_signature'
      | 'signature_mismatch'
      | 'secret_whitespace'
      | 'reserialized_body'
      | 'parsed_body'
      | 'invalid_json'
      | 'invalid_payload'
    >();
  });
});

type ProspectResponseEventOut = z.output<typeof eventSchema>;
