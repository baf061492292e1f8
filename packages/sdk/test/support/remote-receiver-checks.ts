/**
 * What a receiver running in another runtime (recording-receiver.mjs) must do over real
 * HTTP: deliveries reach `onEvent` once, a failing `onEvent` answers 500 and its retry is
 * processed, and bad signatures answer 401 with their cause.
 */
import { expect, it } from 'vitest';
import { sign } from '../../src/webhooks/node.ts';
import { deliver, freshEvent, post, secret } from './receiver-contract.ts';

/** `base()`: the receiver's origin, known once it listens. */
export function remoteReceiverChecks(base: () => string): void {
  const url = () => `${base()}/webhooks/ocs`;
  const calls = async () => (await (await fetch(`${base()}/calls`)).json()) as string[];

  it('answers 200 to a signed delivery and calls onEvent once; a repeat answers 200 without calling it', async () => {
    const event = freshEvent();
    const first = await deliver(url(), event);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'handled' });
    expect(await (await deliver(url(), event)).json()).toEqual({ status: 'duplicate' });
    expect((await calls()).filter((key) => key === event.idempotency_key)).toHaveLength(1);
  });

  it('answers 500 when onEvent throws, and processes the retry', async () => {
    const event = freshEvent('fail once');
    const failed = await deliver(url(), event);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ reason: 'handler_failed' });
    expect(await (await deliver(url(), event)).json()).toEqual({ status: 'handled' });
    expect(await (await deliver(url(), event)).json()).toEqual({ status: 'duplicate' });
    expect((await calls()).filter((key) => key === event.idempotency_key)).toHaveLength(2);
  });

  it('answers 401 with the cause of a bad signature, never calling onEvent', async () => {
    const event = freshEvent();
    const body = JSON.stringify(event);
    const answers = [
      await post(url(), body),
      await deliver(url(), event, 'whsec_someone_else_0123'),
      await post(url(), JSON.stringify(event, null, 2), await sign(body, secret)),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401]);
    const reasons = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { reason: string }).reason),
    );
    expect(reasons).toEqual(['missing_signature', 'signature_mismatch', 'reserialized_body']);
    expect(await calls()).not.toContain(event.idempotency_key);
  });
}
