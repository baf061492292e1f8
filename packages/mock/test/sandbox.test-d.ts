/**
 * Types of `mock.sandbox`: its answers are the document's shapes, `advanceClock` takes
 * exactly one unit, `engage` needs `start_time` for a booked meeting. Checked by
 * `npm run lint` (tsc); nothing here runs.
 */
import type { components } from '@ocs/sdk/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { OcsMock } from '../src/node/index.ts';

declare const mock: OcsMock;
type Schemas = components['schemas'];
const leadId = '5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40';

describe('mock.sandbox', () => {
  it('answers in the API shapes', async () => {
    const { reply, delivery } = await mock.sandbox.reply({ leadId, channel: 'email', message: 'Yes' });
    expectTypeOf(reply).toEqualTypeOf<Schemas['SandboxReply']>();
    expectTypeOf(delivery).toEqualTypeOf<Schemas['SandboxDelivery'] | null>();
    expectTypeOf(await mock.sandbox.messages('c')).toEqualTypeOf<Array<Schemas['SandboxMessage']>>();
    expectTypeOf(await mock.sandbox.deliveries('c')).toEqualTypeOf<Array<Schemas['SandboxDelivery']>>();
    expectTypeOf((await mock.sandbox.advanceClock({ days: 1 })).clock).toEqualTypeOf<Schemas['SandboxClock']>();
    expectTypeOf(mock.sandbox.now()).toEqualTypeOf<Date>();
    // @ts-expect-error the API's channels only
    await mock.sandbox.reply({ leadId, channel: 'sms', message: 'Yes' });
  });

  it('takes exactly one unit of time', async () => {
    await mock.sandbox.advanceClock({ seconds: 30 });
    await mock.sandbox.advanceClock({ to: new Date() });
    await mock.sandbox.advanceClock({ to: '2030-01-01T00:00:00+00:00' });
    // @ts-expect-error one of seconds, days or to
    await mock.sandbox.advanceClock({ seconds: 30, days: 1 });
    // @ts-expect-error one of seconds, days or to
    await mock.sandbox.advanceClock({});
  });

  it('needs start_time for a booked meeting, and takes only the fields of the kind', async () => {
    await mock.sandbox.engage({ leadId, kind: 'email_opened' });
    await mock.sandbox.engage({ leadId, kind: 'meeting_booked', start_time: new Date(), invitee_name: 'Maya' });
    await mock.sandbox.engage({ leadId, kind: 'booking_confirmed', confirmed_by: 'person' });
    // @ts-expect-error start_time is required for meeting_booked
    await mock.sandbox.engage({ leadId, kind: 'meeting_booked' });
    // @ts-expect-error confirmed_by belongs to booking_confirmed
    await mock.sandbox.engage({ leadId, kind: 'email_opened', confirmed_by: 'agent' });
  });
});
