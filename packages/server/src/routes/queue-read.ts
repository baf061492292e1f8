/**
 * The queue's pending steps, read a page of enrolments at a time in the order of the engine's
 * bounds (decision 0002, "The queue reads by bound") rather than the whole campaign. A bound
 * is never later than the lead's next due time, so once the steps read so far include `limit`
 * that sort before the last bound read, no enrolment left unread can come before them: the
 * answer is the one the whole campaign would give, for the cost of the page. Enrolments whose
 * bound is not known (the epoch: new ones, and a campaign whose sequence just changed, until
 * the engine's next round) sort first and are always read.
 *
 * `store` must be a transaction's (the SQL store's pages come through a cursor), reading as
 * of one moment (a `snapshot` transaction): the events read for each page must agree with
 * the bounds of the pages before. And the time the steps are worked out at is read after the
 * first page (`now()`), so that it is no earlier than any round whose bounds that page saw: a
 * round at a later time settles a conditional due before then and writes the bound of the
 * branch after it, which a time before the conditional would put in the wrong place.
 */
import { instant } from '../domain/activity.ts';
import { type PendingStep, type QueueCampaign, pendingSteps, soonestFirst } from '../domain/campaign-queue.ts';
import { compareText } from '../domain/collections.ts';
import type { SenderAccountRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';

export interface QueueRead {
  campaign: QueueCampaign & { id: string };
  accounts: ReadonlyArray<Pick<SenderAccountRecord, 'id' | 'platform'>>;
  /** The time to work out the steps at, read once the first page is. */
  now: () => string;
  before?: string;
  limit: number;
}

/** Enrolments read per page: at least the queue's page, so that a campaign in order needs one. */
const minPageSize = 100;

/** The pending steps of an active campaign (a draft or deactivated one has none: not read). */
export async function readPendingSteps(store: Store, input: QueueRead): Promise<PendingStep[]> {
  const { campaign, limit } = input;
  const pageSize = Math.max(limit, minPageSize);
  const before = input.before === undefined ? Number.POSITIVE_INFINITY : instant(input.before);
  const found: PendingStep[] = [];
  let now: string | undefined;
  for await (const page of store.enrolments.pagesByBound(campaign.id, pageSize)) {
    now ??= input.now();
    const events = await store.activity.listForEnrolments(page.map((enrolment) => enrolment.id));
    found.push(
      ...pendingSteps({ campaign, accounts: input.accounts, enrolments: page, events, now, before: input.before }),
    );
    const last = page.at(-1);
    if (last === undefined) break;
    // Every enrolment left is due at or after `last`'s bound, and comes after `last` in the
    // bounds' order: a step that sorts no later than (that bound, `last`'s ID) keeps its place.
    const floor = instant(last.due_at);
    if (floor > before) break;
    const settled = found.filter((step) => {
      const due = instant(step.next.due_at);
      return due < floor || (due === floor && compareText(step.enrolment.id, last.id) <= 0);
    });
    if (settled.length >= limit) break;
  }
  return found.sort(soonestFirst).slice(0, limit);
}
