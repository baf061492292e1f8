/**
 * A campaign played out by a tiny stand-in for the engine: each lead walks the sequence as
 * `sequenceProgress` says, steps run a little after they come due, and prospects open,
 * accept, reply and book at random (from a seed, so runs repeat). The result is the rich,
 * realistic dataset on which the analytics reports must agree with one another.
 */
import type { ActivityEvent } from '../../src/domain/activity.ts';
import type { AnalyticsData, CountedBooking } from '../../src/domain/analytics/index.ts';
import { placeholderFills } from '../../src/domain/analytics/index.ts';
import { sequenceProgress, stepRunRecord, followedSteps } from '../../src/domain/sequence-progress.ts';
import type { ActivityKind, EnrolmentWithLeadRecord, Sequence, SequenceStep } from '../../src/store/records.ts';

/** mulberry32: a small seeded generator. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const hour = 3_600_000;

export interface SimulatedCampaign extends AnalyticsData {
  sequence: Sequence;
  activatedAt: string;
  now: string;
}

export function simulateCampaign(options: { seed: number; leads: number; sequence: Sequence }): SimulatedCampaign {
  const next = random(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const chance = (p: number) => next() < p;
  const activatedAt = Date.UTC(2026, 10, 1, 9);
  const now = Date.UTC(2026, 10, 20, 12);
  const enrolments: EnrolmentWithLeadRecord[] = [];
  const events: ActivityEvent[] = [];
  const bookings: CountedBooking[] = [];
  const iso = (ms: number) => new Date(ms).toISOString();

  for (let i = 0; i < options.leads; i += 1) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const enrolledAt = activatedAt - 48 * hour + Math.floor(next() * 200) * hour;
    const own: ActivityEvent[] = [];
    const add = (kind: ActivityKind, at: number, extra: Partial<ActivityEvent> = {}) => {
      if (at > now) return;
      const event: ActivityEvent = {
        id: `${id}-${String(own.length).padStart(4, '0')}`,
        enrolment_id: id,
        kind,
        occurred_at: iso(at),
        step_id: null,
        account_id: null,
        channel: null,
        data: {},
        ...extra,
      };
      own.push(event);
    };
    let arm: 'a' | 'b' | null = null;
    for (let guard = 0; guard < 20; guard += 1) {
      const progress = sequenceProgress({
        sequence: options.sequence,
        arm,
        winner: null,
        start: iso(Math.max(enrolledAt, activatedAt)),
        events: own,
        now: iso(now),
      });
      if (progress.state !== 'pending') break;
      const runAt = Date.parse(progress.next.due_at) + Math.floor(next() * 6) * hour;
      if (runAt > now) break;
      // A lead gets its arm when its first step is sent, and then takes that arm's first step.
      if (arm === null) arm = chance(0.5) ? 'a' : 'b';
      const { steps } = followedSteps(options.sequence, arm);
      const step: SequenceStep =
        arm === 'b' && progress.next.position === '0' ? (steps[0] as SequenceStep) : progress.next.step;
      if (step.type === 'conditional') break; // due in the future; the walk evaluates due ones itself
      runStep(step, progress.next.position, steps, runAt);
    }
    const final = sequenceProgress({
      sequence: options.sequence,
      arm,
      winner: null,
      start: iso(Math.max(enrolledAt, activatedAt)),
      events: own,
      now: iso(now),
    });
    const ran = final.trail.some((entry) => entry.ran_at !== null && entry.event !== null);
    const status =
      final.state === 'paused'
        ? 'paused'
        : final.state === 'completed'
          ? 'completed'
          : ran
            ? 'active'
            : 'not_contacted';
    enrolments.push({
      id,
      organization_id: 'org',
      campaign_id: 'c1',
      lead_id: `lead-${i}`,
      status: ran || final.state === 'paused' ? status : 'not_contacted',
      variation: ran ? arm : null,
      enrolled_at: iso(enrolledAt),
      // A few leads were removed from the campaign, a few deleted: counted differently.
      removed_at: i % 17 === 5 ? iso(now - hour) : null,
      lead_deleted_at: i % 13 === 7 ? iso(now - hour) : null,
    });
    events.push(...own);

    function runStep(step: SequenceStep, position: string, steps: SequenceStep[], at: number) {
      const record = stepRunRecord(steps, position);
      const placeholders = placeholderFills(
        step,
        { first_name: 'Maya', company: chance(0.8) ? 'Acme' : null, custom_fields: {} },
        [{ field_name: 'icebreaker', fallback_value: 'Hello', is_active: true }],
        chance(0.7) ? { icebreaker: 'Generated' } : {},
      );
      const account = (channel: 'email' | 'linkedin') =>
        channel === 'email' ? pick(['acc_em_1', 'acc_em_2']) : pick(['acc_li_1', 'acc_li_2']);
      const reply = (channel: 'email' | 'linkedin', accountId: string, after: number) => {
        if (!chance(0.2)) return;
        const replyAt = after + Math.floor(1 + next() * 60) * hour;
        const outOfOffice = chance(0.1);
        const sentiment = pick(['positive', 'positive', 'neutral', 'negative', null] as const);
        add('reply_received', replyAt, {
          channel,
          account_id: chance(0.7) ? accountId : null,
          data: { sentiment, out_of_office: outOfOffice, message: 'reply' },
        });
        if (chance(0.3)) {
          add('reply_received', replyAt + 20 * hour, {
            channel,
            data: { sentiment: pick(['positive', 'neutral'] as const), out_of_office: false, message: 'again' },
          });
        }
        if (sentiment === 'positive' && !outOfOffice && chance(0.6) && replyAt + 24 * hour <= now) {
          bookings.push({
            id: `${id}-booking`,
            enrolment_id: id,
            kind: chance(0.5) ? 'meeting' : 'confirmation',
            booked_at: iso(replyAt + 24 * hour),
          });
        }
      };
      if (step.type === 'email') {
        const accountId = account('email');
        add('email_sent', at, {
          step_id: step.id,
          channel: 'email',
          account_id: accountId,
          data: { ...record, placeholders },
        });
        if (chance(0.5))
          add('email_opened', at + Math.floor(next() * 48) * hour, { channel: 'email', account_id: accountId });
        if (chance(0.3)) add('email_opened', at + 50 * hour, { channel: 'email', account_id: accountId });
        reply('email', accountId, at);
      } else if (step.type === 'view_profile') {
        add('profile_viewed', at, {
          step_id: step.id,
          channel: 'linkedin',
          account_id: account('linkedin'),
          data: record,
        });
      } else if (step.type === 'linkedin_connection') {
        const accountId = account('linkedin');
        if (chance(0.15)) {
          add('already_connected', at, { step_id: step.id, channel: 'linkedin', account_id: accountId, data: record });
          return;
        }
        add('connection_requested', at, {
          step_id: step.id,
          channel: 'linkedin',
          account_id: accountId,
          data: { ...record, placeholders },
        });
        if (chance(0.45)) add('connection_accepted', at + Math.floor(next() * 120) * hour, { channel: 'linkedin' });
        reply('linkedin', accountId, at);
      } else if (step.type === 'linkedin_message') {
        const accountId = account('linkedin');
        add('linkedin_message_sent', at, {
          step_id: step.id,
          channel: 'linkedin',
          account_id: accountId,
          data: { ...record, placeholders },
        });
        reply('linkedin', accountId, at);
      }
    }
  }
  return { sequence: options.sequence, activatedAt: iso(activatedAt), now: iso(now), enrolments, events, bookings };
}
