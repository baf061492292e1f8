/**
 * `mock.sandbox`: the sandbox operations (simulate a reply or an engagement, advance the
 * clock, read what the sandbox channel and the delivery worker did) called in process,
 * without a client.
 *
 * Each call is a request to the mock's application, so auth, validation and the error
 * bodies are the service's; a refusal throws `OcsMockSandboxError` with the API's answer.
 * The calls use a key of their own that the rate limits do not count, and they go straight
 * to the application: the test's budget, scenarios and overrides neither see nor touch them.
 *
 * @example
 * await mock.sandbox.advanceClock({ days: 1 }); // the first steps run: messages are recorded
 * const { reply, delivery } = await mock.sandbox.reply({ leadId, channel: 'email', message: 'Sounds good!' });
 * // The campaign's webhook already got the signed prospect_response: delivery.status === 'delivered'.
 */
import type { OperationData, OperationId } from '@ocs/sdk';
import type {
  ErrorBody,
  SandboxDelivery,
  SandboxEngagement,
  SandboxEngagementInput,
  SandboxMessage,
  SandboxReply,
} from './api-types.ts';
import type { Engine } from './engine.ts';
import { isPlainObject, shown } from './option-values.ts';
import { OcsMockSandboxError } from './sandbox-error.ts';

/** Which lead, in which campaign (default: the lead's campaign, its first enrolment). */
export interface SandboxLeadTarget {
  /** Default: the campaign the lead is enrolled in (the first, when several). */
  campaignId?: string;
  leadId: string;
}

export interface SandboxReplyOptions extends SandboxLeadTarget {
  /** The channel the reply arrives on: the lead must have been sent a message there. */
  channel: SandboxReply['channel'];
  /** The reply as the prospect wrote it; the built-in classifier and reply agent read it. */
  message: string;
}

export interface SandboxReplyResult {
  /** The reply as the service received, classified and handled it (`simulateReply`'s answer). */
  reply: SandboxReply;
  /**
   * The `prospect_response` delivery after its first attempt (status, attempts with the
   * receivers' answers); null when the reply was not delivered (`reply.not_delivered_reason`).
   */
  delivery: SandboxDelivery | null;
}

type EngagementKind = SandboxEngagementInput['kind'];
type EngagementFields = Omit<SandboxEngagementInput, 'lead_id' | 'kind' | 'start_time'>;

/** The body of `simulateEngagement` beside the lead: `start_time` is required for a booked meeting. */
export type SandboxEngageOptions = SandboxLeadTarget &
  (
    | { kind: Exclude<EngagementKind, 'meeting_booked' | 'booking_confirmed'> }
    | ({ kind: 'meeting_booked'; start_time: string | Date } & Pick<EngagementFields, 'invitee_name' | 'invitee_email'>)
    | ({ kind: 'booking_confirmed' } & Pick<EngagementFields, 'confirmed_by'>)
  );

/** Exactly one of `seconds`, `days` (86,400 s) or `to` (a later moment), as the operation takes. */
export type SandboxAdvanceOptions =
  | { seconds: number; days?: never; to?: never }
  | { days: number; seconds?: never; to?: never }
  | { to: string | Date; seconds?: never; days?: never };

/** The clock after the advance, and what ran on the way. */
export type SandboxAdvanceResult = Pick<OperationData<'advanceSandboxClock'>, 'clock' | 'ran'>;

export interface OcsMockSandbox {
  /**
   * A prospect's reply (`simulateReply`), then the delivery worker's due attempts, so that the
   * campaign's webhooks have the signed `prospect_response` when this resolves.
   */
  reply(options: SandboxReplyOptions): Promise<SandboxReplyResult>;
  /** An email opened, a connection accepted, a meeting booked or a booking confirmed (`simulateEngagement`). */
  engage(options: SandboxEngageOptions): Promise<SandboxEngagement>;
  /** Moves the sandbox clock forward, running due steps and delivery retries in time order (`advanceSandboxClock`). */
  advanceClock(by: SandboxAdvanceOptions): Promise<SandboxAdvanceResult>;
  /** The sandbox clock's now: what the mock writes as the time of everything it records. */
  now(): Date;
  /** Every message the sandbox channel recorded for the campaign, oldest first (`listSandboxMessages`). */
  messages(campaignId: string, options?: { leadId?: string }): Promise<SandboxMessage[]>;
  /** Every `prospect_response` delivery of the campaign, with its attempts (`listSandboxDeliveries`). */
  deliveries(campaignId: string): Promise<SandboxDelivery[]>;
}

type Method = 'GET' | 'POST';

/**
 * The object each sandbox operation takes: without it the call failed reading its fields
 * ("Cannot read properties of undefined"). What is in it the API checks, and refuses as
 * `OcsMockSandboxError` with its own answer.
 */
function argument(value: unknown, name: string, shape: string): void {
  if (!isPlainObject(value)) throw new TypeError(`@ocs/mock: ${name} takes an object, ${shape}; got ${shown(value)}.`);
}

// The sandbox lists answer at most 500 items a page.
const pageSize = 500;

export function createSandbox(engine: Engine): OcsMockSandbox {
  const id = encodeURIComponent;

  async function call<Id extends OperationId>(
    operationId: Id,
    method: Method,
    path: string,
    body?: object,
  ): Promise<OperationData<Id>> {
    const response = await engine.app.fetch(
      new Request(`${engine.base.origin}/v1${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${engine.sandboxApiKey}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const parsed: unknown = await response.json();
    if (!response.ok) throw new OcsMockSandboxError(operationId, response.status, parsed as ErrorBody);
    return parsed as OperationData<Id>;
  }

  /** Every page of a sandbox list, with `page` reading one (at `offset`). */
  async function all<Item>(
    page: (query: string) => Promise<{ items: readonly Item[]; has_more: boolean }>,
    query: Record<string, string> = {},
  ): Promise<Item[]> {
    const found: Item[] = [];
    for (;;) {
      const search = new URLSearchParams({ ...query, limit: String(pageSize), offset: String(found.length) });
      const { items, has_more } = await page(search.toString());
      found.push(...items);
      if (!has_more || items.length === 0) return found;
    }
  }

  async function campaignOf(target: SandboxLeadTarget): Promise<string> {
    if (target.campaignId !== undefined) return target.campaignId;
    // Through the API: an unknown lead is the service's 404 LEAD_NOT_FOUND.
    const { lead } = await call('getLead', 'GET', `/leads/${id(target.leadId)}`);
    const [enrolment] = lead.enrolments;
    if (!enrolment) {
      throw new Error(`@ocs/mock: lead ${target.leadId} is enrolled in no campaign; pass campaignId.`);
    }
    return enrolment.campaign_id;
  }

  const deliveries = (campaignId: string) =>
    all(async (query) => {
      const page = await call(
        'listSandboxDeliveries',
        'GET',
        `/sandbox/campaigns/${id(campaignId)}/deliveries?${query}`,
      );
      return { items: page.deliveries, has_more: page.has_more };
    });

  return {
    async reply(options) {
      argument(options, 'sandbox.reply', '{ leadId, channel, message }');
      const campaignId = await campaignOf(options);
      const { reply } = await call('simulateReply', 'POST', `/sandbox/campaigns/${id(campaignId)}/replies`, {
        lead_id: options.leadId,
        channel: options.channel,
        message: options.message,
      });
      if (!reply.delivery) return { reply, delivery: null };
      const { delivery_id } = reply.delivery;
      await engine.deliverDue();
      const delivery = (await deliveries(campaignId)).find((d) => d.delivery_id === delivery_id);
      if (!delivery) throw new Error(`@ocs/mock: delivery ${delivery_id} is missing from the campaign's deliveries.`);
      return { reply, delivery };
    },

    async engage(options) {
      argument(options, 'sandbox.engage', "{ leadId, kind: 'email_opened' }");
      const { campaignId, leadId, ...fields } = options;
      const campaign = await campaignOf({ campaignId, leadId });
      const body: Record<string, unknown> = { ...fields, lead_id: leadId };
      if (body.start_time instanceof Date) body.start_time = body.start_time.toISOString();
      const answer = await call('simulateEngagement', 'POST', `/sandbox/campaigns/${id(campaign)}/engagements`, body);
      return answer.engagement;
    },

    async advanceClock(by) {
      argument(by, 'sandbox.advanceClock', '{ seconds }, { days } or { to }');
      const body = by.to instanceof Date ? { to: by.to.toISOString() } : by;
      const { clock, ran } = await call('advanceSandboxClock', 'POST', '/sandbox/clock/advance', body);
      return { clock, ran };
    },

    now: () => engine.clock.now(),

    messages(campaignId, options = {}) {
      return all(
        async (query) => {
          const page = await call(
            'listSandboxMessages',
            'GET',
            `/sandbox/campaigns/${id(campaignId)}/messages?${query}`,
          );
          return { items: page.messages, has_more: page.has_more };
        },
        options.leadId === undefined ? {} : { lead_id: options.leadId },
      );
    },

    deliveries,
  };
}
