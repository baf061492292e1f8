/**
 * An engine on a test store: a sandbox clock over a frozen real time, the sandbox channel,
 * and no deliveries (the delivery worker has its own suites), with an API on the same clock.
 */
import { SandboxClock } from '../../src/domain/clock.ts';
import { sandboxChannel } from '../../src/engine/channel.ts';
import { createEngine, type DeliveryRunner, type Engine } from '../../src/engine/engine.ts';
import type { Store } from '../../src/store/types.ts';
import type { LeadRecord } from '../../src/store/records.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertLead } from '../support/campaign-setup.ts';

export const startOfTest = '2026-11-09T09:00:00.000Z';

export const noDeliveries: DeliveryRunner = {
  runDue: async () => 0,
  nextDueAt: async () => null,
  notify: () => undefined,
  start: () => undefined,
  stop: async () => undefined,
};

export interface EngineHarness {
  api: TestApi;
  clock: SandboxClock;
  engine: Engine;
}

export async function engineHarness(store: Store): Promise<EngineHarness> {
  const clock = new SandboxClock({ now: () => new Date(startOfTest) });
  const api = await createTestApi(store, { clock, config: { sandbox: true } });
  const engine = createEngine({ store, clock, channel: sandboxChannel, deliveries: noDeliveries });
  return { api, clock, engine };
}

export const days = (n: number) => n * 86_400_000;

/** The sandbox clock's now plus `ms`. */
export const later = (clock: SandboxClock, ms: number) => new Date(clock.now().getTime() + ms);

export async function activate(api: TestApi, campaignId: string): Promise<void> {
  const answer = await api.call('PATCH', `/v1/campaigns/${campaignId}`, { body: { is_active: true } });
  if (answer.status !== 200) throw new Error(`not activated: ${JSON.stringify(answer.body)}`);
}

export async function assignSenders(api: TestApi, campaignId: string, accountIds: string[]): Promise<void> {
  const answer = await api.call('PUT', `/v1/campaigns/${campaignId}/senders`, { body: { account_ids: accountIds } });
  if (answer.status !== 200) throw new Error(`senders not assigned: ${JSON.stringify(answer.body)}`);
}

/** A lead enrolled in `campaignId` (insertLead with a campaign always enrols). */
export async function enrolledLead(api: TestApi, campaignId: string, fields: Partial<LeadRecord> = {}) {
  const { lead, enrolment } = await insertLead(api, fields, campaignId);
  if (!enrolment) throw new Error('lead not enrolled');
  return { lead, enrolment };
}

/** The value, or a failed test when it is missing. */
export function present<T>(value: T | null | undefined, what = 'value'): T {
  if (value === null || value === undefined) throw new Error(`${what} missing`);
  return value;
}
