/**
 * Erasure of a deleted lead (`DELETE /leads/{lead_id}` without `campaign_id`; issue 10):
 * every stored copy of the lead's personal and company data is erased or anonymised, in the
 * caller's transaction, from this one place. What each store does, and what stays physically
 * on disk, is docs/decisions/0003-erasure.md.
 *
 * - the lead row: every personal and company field overwritten, the row marked deleted;
 * - activity events: the text of its replies;
 * - sandbox messages: the rendered subject and body;
 * - bookings: the invitee's name and email;
 * - the delivery outbox: every body becomes the event with the lead left out, and every
 *   delivery not yet made is cancelled (never sent);
 * - deals of the lead: the lead's values taken out of their name, notes, custom fields and
 *   metadata (the summary a person wrote about the lead);
 * - stored answers for `Idempotency-Key` replays that name the lead: its fields erased and
 *   its values taken out; their requests' digests, and those of the organization's refused
 *   lead creates (whose answers name no lead), dropped.
 *
 * Enrolments, events, bookings, deliveries and deals keep their rows and IDs, so analytics
 * count as before.
 */
import { erasedEventBody } from '../delivery/payload.ts';
import { erasedLeadFields } from '../store/memory/leads.ts';
import { leadDataFields } from './lead-rules.ts';
import { sandboxPageTextBytes } from '../store/page-bytes.ts';
import { leadDataOperationDigest } from './request-fingerprint.ts';
import { foldCase, replaceValues } from './scrub-text.ts';
import type { DealRecord, LeadRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';

/** What replaces a lead's value found inside text a person wrote (a deal's notes). */
export const erasedText = '[erased]';

/**
 * The lead's personal values as text: its text data fields (numbers such as
 * `employee_count` are not searched for in text) and every string (and key) of its custom
 * fields, longest first, so that a value holding another is taken out whole.
 */
export function personalValues(lead: LeadRecord): string[] {
  const values = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string' && value.trim() !== '') values.add(value.trim());
  };
  for (const field of leadDataFields) add(lead[field]);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) walk(item);
    else add(value);
  };
  walk(lead.custom_fields);
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * The texts of the lead's conversation: what it wrote (its replies) and what was sent to it
 * (the rendered subjects and bodies), which its erasure erases in place. Read before the
 * erasure by a holder of copies the store does not keep (@ocs/mock's request journal, which
 * recorded the answers that carried them), to take them out as `personalValues` are.
 */
export async function conversationTexts(store: Store, organizationId: string, leadId: string): Promise<string[]> {
  // A short text ("Yes", "Thanks!") is no one's in particular: taken out of every string, it
  // blanked the same words of other leads. Where the lead's own objects hold it, it goes by
  // field (`erasedConversationFields`).
  const add = (text: unknown) => {
    if (typeof text === 'string' && text.trim().length >= conversationTextMinLength) texts.add(text.trim());
  };
  const enrolments = await store.enrolments.listForLead(leadId);
  const texts = new Set<string>();
  for (const event of await store.activity.listForEnrolments(enrolments.map((e) => e.id))) {
    if (event.organization_id === organizationId) add(event.data.message);
  }
  for (const campaignId of new Set(enrolments.map((e) => e.campaign_id))) {
    // Pages bounded by their text's bytes as the sandbox list's are: a page of 500 messages
    // stored before the render budget (2,000,000 characters each) was some 2 GB of strings.
    // Such a page holds fewer than `limit` messages without being the last, so the walk
    // advances by what it got and ends at the total.
    for (let offset = 0; ;) {
      const page = await store.messages.listForCampaign(campaignId, {
        lead_id: leadId,
        limit: messagesPage,
        offset,
        maxTextBytes: sandboxPageTextBytes,
      });
      for (const message of page.items) {
        if (message.organization_id !== organizationId) continue;
        add(message.subject);
        add(message.body);
      }
      offset += page.items.length;
      if (page.items.length === 0 || offset >= page.total) break;
    }
  }
  return [...texts].sort((a, b) => b.length - a.length);
}

/** Sandbox messages read a page at a time by `conversationTexts`. */
const messagesPage = 500;

/** The shortest conversation text `conversationTexts` gives. */
const conversationTextMinLength = 16;

/**
 * The conversation's fields in an object that is the lead's (a reply, a message sent to it),
 * as the store erases them: a reply's text (`message` as `simulateReply` takes it,
 * `prospect_message` as it answers), a message's rendered subject and body. For `erasedJson`,
 * beside `erasedLeadFields`, where an answer holds them as the lead's.
 */
export const erasedConversationFields: Readonly<Record<string, null>> = {
  message: null,
  prospect_message: null,
  subject: null,
  body: null,
};

/**
 * `text` with every occurrence of the values replaced by `[erased]`: case-insensitively, and
 * where the value starts or ends with a letter or digit, only where no letter or digit is
 * glued to it (so that a first name `Al` leaves `Also` alone). See scrub-text.ts.
 */
export function scrubText(text: string, values: readonly string[]): string {
  return replaceValues(text, values, erasedText);
}

/** A JSON value with `scrubText` applied to every string and object key in it. */
export function scrubJson<T>(value: T, values: readonly string[]): T {
  if (typeof value === 'string') return scrubText(value, values) as T;
  if (Array.isArray(value)) return value.map((item) => scrubJson(item, values)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [scrubText(key, values), scrubJson(item, values)]),
    ) as T;
  }
  return value;
}

/** A deal's summary with the lead's values taken out. */
export function erasedDealSummary(
  deal: DealRecord,
  values: readonly string[],
): Pick<DealRecord, 'name' | 'notes' | 'custom_fields' | 'metadata'> {
  return {
    name: scrubText(deal.name, values),
    notes: deal.notes === null ? null : scrubText(deal.notes, values),
    custom_fields: scrubJson(deal.custom_fields, values),
    metadata: scrubJson(deal.metadata, values),
  };
}

/**
 * A stored answer (JSON text) with the lead left out: every object that is the lead (`id`)
 * or names it (`lead_id`) gets the lead's personal fields it has erased as the lead row is
 * (numbers included), and the lead's values are taken out of every string. Text that is not
 * JSON has the values taken out.
 */
export function erasedAnswer(body: string, leadId: string, values: readonly string[]): string {
  // Most answers that name a lead hold nothing of it but its ID (an import's names each lead
  // by ID): walking one of 20,000 items took half a second per erasure, so a batch's leads
  // took hours to erase one by one. Such an answer comes back as it is, unparsed.
  if (!mayHoldPersonalData(body, values)) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return scrubText(body, values);
  }
  return JSON.stringify(erasedJson(parsed, namesLead(leadId), values));
}

const erasedFieldKeys = Object.keys(erasedLeadFields).map((field) => `"${field}"`);

/**
 * False only when `erasedAnswer` would change nothing: the text has no key of a lead's
 * personal field (whatever object holds it) and none of the values, case-insensitively, as
 * written or as JSON writes them inside a string (`O"Brien` is `O\"Brien` there). A value
 * with half a surrogate pair is always walked: JSON escapes it alone but not inside the pair
 * it may match. A match where `scrubText` would not replace (a value glued to a letter) only
 * costs the walk.
 */
function mayHoldPersonalData(body: string, values: readonly string[]): boolean {
  if (erasedFieldKeys.some((key) => body.includes(key))) return true;
  const text = foldCase(body);
  return values.some(
    (value) =>
      loneSurrogate.test(value) ||
      text.includes(foldCase(value)) ||
      text.includes(foldCase(JSON.stringify(value).slice(1, -1))),
  );
}

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a JSON object is the lead `leadId` (`id`) or names it (`lead_id`). */
export function namesLead(leadId: string): (object: Record<string, unknown>) => boolean {
  return (object) => object.id === leadId || object.lead_id === leadId;
}

/**
 * A JSON value with the lead left out: every object `isLead` picks gets the lead's personal
 * fields it has erased as the lead row is (numbers included; `fields`, by default
 * `erasedLeadFields`), and the lead's values are taken
 * out of every string and key. `erasedAnswer` on parsed JSON; @ocs/mock's request journal
 * erases its entries with it too.
 */
export function erasedJson<T>(
  value: T,
  isLead: (object: Record<string, unknown>) => boolean,
  values: readonly string[],
  fields: Readonly<Record<string, unknown>> = erasedLeadFields,
): T {
  const erasedFields = Object.entries(fields);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const object = Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item)]));
    if (isLead(object)) {
      for (const [field, erased] of erasedFields) if (field in object) object[field] = erased;
    }
    return object;
  };
  return scrubJson(walk(value), values) as T;
}

/**
 * Erases the live lead `leadId` of the organization and every copy of its data, in the
 * caller's transaction `tx`; false when there is no such live lead.
 *
 * Locks in the order every writer of a lead takes them: the lead's row, then its enrolments.
 * - The row, locked before its values are read: a change of the lead, or a deal pointing at
 *   it, under way commits first, and what it wrote is erased with the rest. A second erasure
 *   of the lead waits here holding nothing, then finds the lead deleted.
 * - The enrolments: the lock a step and a reply of the lead take (they read the lead without
 *   locking it). One that read the lead before cannot write a copy after the erasure (the
 *   erasure waits for it and erases what it wrote); one that comes after finds the lead deleted.
 *
 * The enrolments were locked first until 2026-11-29: then an erasure held them while it
 * waited for the row, which a second erasure, or a create enrolling the lead in another
 * campaign, held while it waited for an enrolment the first would update (PostgreSQL ended
 * one of them: `deadlock detected`, a 500; decision 0003, "One lock order").
 */
export async function eraseLeadEverywhere(
  tx: Store,
  organizationId: string,
  leadId: string,
  at: string,
): Promise<boolean> {
  const lead = await tx.leads.get(organizationId, leadId, { lock: 'update' });
  if (!lead) return false;
  await tx.enrolments.listForLead(leadId, { forUpdate: true });
  const values = personalValues(lead);
  if (!(await tx.leads.erase(organizationId, leadId, at))) return false;
  await tx.activity.eraseLead(organizationId, leadId);
  await tx.bookings.eraseLead(organizationId, leadId);
  await tx.messages.eraseLead(organizationId, leadId);
  await tx.deliveries.eraseLead(organizationId, leadId, { at, anonymise: erasedEventBody });
  await tx.deals.eraseLead(organizationId, leadId, (deal) => erasedDealSummary(deal, values));
  const refusedOperations = [await leadDataOperationDigest()];
  await tx.idempotency.eraseLead(
    organizationId,
    leadId,
    (body) => erasedAnswer(body, leadId, values),
    refusedOperations,
  );
  return true;
}
