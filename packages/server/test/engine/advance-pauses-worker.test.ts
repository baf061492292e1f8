/**
 * Advancing the sandbox clock while the delivery worker's loop has an attempt in flight: the
 * advance must not make the same delivery's next attempt while this one is still out. The
 * loop pauses (its attempt finishes) and the advance makes the later attempts itself, one at
 * a time.
 */
import { expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import type { AttemptOutcome } from '../../src/delivery/types.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { createTestApi } from '../support/api.ts';
import { replyAwaitingDelivery } from '../support/campaign-setup.ts';
import { answer, fakeTransport } from '../support/fake-transport.ts';

it('lets the attempt in flight finish before the clock jumps, and never overlaps attempts', async () => {
  const clock = new SandboxClock({ now: () => new Date('2026-11-09T09:00:00.000Z') });
  let release: (outcome: AttemptOutcome) => void = () => undefined;
  let inFlight = 0;
  let mostInFlight = 0;
  const transport = fakeTransport(clock, async () => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    // The first attempt waits for the test; later ones fail at once.
    const outcome =
      transport.sent.length === 1 ? await new Promise<AttemptOutcome>((done) => (release = done)) : answer.status(503);
    inFlight -= 1;
    return outcome;
  });
  const api = await createTestApi(createMemoryStore(), {
    clock,
    config: { sandbox: true },
    webhookTransport: transport,
  });
  await replyAwaitingDelivery(api);
  const { engine } = api.app;

  engine.start({ intervalMs: 60_000, deliveryPollMs: 60_000 });
  for (let i = 0; i < 100 && transport.sent.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(transport.sent).toHaveLength(1);
  const advancing = engine.advanceTo(new Date(clock.now().getTime() + 86_400_000));
  await new Promise((r) => setTimeout(r, 50));
  // The advance waits for the attempt in flight: nothing else was sent meanwhile.
  expect(transport.sent).toHaveLength(1);
  release(answer.status(503));
  await advancing;
  await engine.stop();
  expect(mostInFlight).toBe(1);
  expect(transport.sent.map((sent) => sent.headers['X-OCS-Delivery-Attempt'])).toEqual(['1', '2', '3', '4', '5']);
});
