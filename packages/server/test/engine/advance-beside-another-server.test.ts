/**
 * Two sandbox servers on one store: one has a delivery attempt out (its receiver is slow)
 * when the other advances the sandbox clock by a day. The claim's lease runs on real time, so
 * the jump does not end it: the other server neither sends the event again nor stops its
 * advance at the claim, and the attempt in flight completes as the only one.
 */
import { expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { SandboxClock } from '../../src/domain/clock.ts';
import type { AttemptOutcome } from '../../src/delivery/types.ts';
import { createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { replyAwaitingDelivery } from '../support/campaign-setup.ts';
import { answer, fakeTransport } from '../support/fake-transport.ts';

const day = 86_400_000;

describeBackends('a sandbox advance beside another server’s attempt', (store) => {
  it('neither repeats the attempt nor stops at it', async () => {
    const clockA = new SandboxClock();
    let release: (outcome: AttemptOutcome) => void = () => undefined;
    const held = new Promise<AttemptOutcome>((done) => (release = done));
    const transportA = fakeTransport(clockA, () => held);
    const a = await createTestApi(store(), { clock: clockA, config: { sandbox: true }, webhookTransport: transportA });
    const campaignId = await replyAwaitingDelivery(a);
    a.app.engine.start({ intervalMs: 60_000, deliveryPollMs: 60_000 });
    try {
      for (let i = 0; i < 1000 && transportA.sent.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(transportA.sent).toHaveLength(1);

      const clockB = new SandboxClock();
      const transportB = fakeTransport(clockB);
      const b = createApp({ store: store(), clock: clockB, config: { sandbox: true }, webhookTransport: transportB });
      const advanced = await b.engine.advanceTo(new Date(clockB.now().getTime() + day));
      expect(advanced.deliveries_attempted).toBe(0);
      expect(transportB.sent).toHaveLength(0);

      release(answer.ok());
      for (let i = 0; i < 1000; i++) {
        const [delivery] = (await store().deliveries.listForCampaign(campaignId, { limit: 10, offset: 0 })).items;
        if (delivery?.status === 'delivered') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const { items } = await store().deliveries.listForCampaign(campaignId, { limit: 10, offset: 0 });
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ status: 'delivered', attempts_made: 1 });
      expect(items[0]?.attempts.map((attempt) => attempt.attempt)).toEqual([1]);
    } finally {
      release(answer.ok());
      await a.app.engine.stop();
    }
  });
});
