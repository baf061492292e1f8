/**
 * An erased lead leaves the journal as it leaves the service's store, with the server's own
 * erasure rules (`erasedJson`, `personalValues` of packages/server/src/domain/erasure.ts):
 * every object that is the lead gets its personal fields erased as the lead row is (numbers
 * included), and the lead's values are taken out of every string and key of every entry
 * (path, path parameters, query, headers, bodies), as `[erased]`.
 *
 * The journal holds what the store never did, so "the lead" is found in more places:
 * - its values as they were when each entry was made, not only as they are at the erasure:
 *   every object of the journal that is the lead (`id`) adds its values, so an email changed
 *   since the lead was created is erased too;
 * - what the lead wrote and was sent (its replies, the rendered messages), which the store
 *   erases in place and the journal has in bodies and answers: by field in the objects that
 *   are the lead's (a `simulateReply` body, a reply, a message), and as text elsewhere (a
 *   delivery's payload) when long enough to be its own (`conversationTexts`);
 * - request bodies, which carry no `id`: the body of a request to the lead's own path
 *   (`/leads/{lead_id}`, whatever the method, one the path does not have included), and every
 *   object with the lead's email or LinkedIn profile (a `createLead` body, an item of a batch);
 * - URLs: a path as requested, percent-encoded (a `getLead` by the lead's email), is scrubbed
 *   decoded, segment by segment, and the values' usual encodings are taken out of every other
 *   string (percent-encoding.ts).
 */
import { erasedConversationFields, erasedJson, erasedLeadFields, type MemoryStore, personalValues } from '@ocs/server';
import { decodedLeniently, encodedForms, scrubbedBothWays, scrubbedPath } from './percent-encoding.ts';
import type { OcsMockRequest } from './types.ts';

export type LeadRecord = NonNullable<Awaited<ReturnType<MemoryStore['leads']['get']>>>;

type JsonObject = Record<string, unknown>;

/** What the journal's erasure reads of the lead before its erasure, beside the lead itself. */
export interface LeadConversation {
  /** `conversationTexts` of @ocs/server: its replies, the messages sent to it. */
  texts: readonly string[];
  /** Its enrolments' IDs (`sequence_lead_id`). */
  enrolmentIds: readonly string[];
}

/** Erases the lead from the entries, in place. */
export type EntryEraser = (entry: OcsMockRequest) => void;

/**
 * The eraser of `lead` (read before its erasure) for these entries, which it reads for the
 * lead's past values. `conversation`: its replies' and messages' texts, taken out whole
 * wherever they were recorded when long enough to be its own, and its enrolments, whose
 * deliveries' events are its conversation too.
 */
export function leadEraser(
  lead: LeadRecord,
  entries: readonly OcsMockRequest[],
  conversation: LeadConversation = { texts: [], enrolmentIds: [] },
): EntryEraser {
  const { texts } = conversation;
  // Its enrolments (`sequence_lead_id`): a delivery's event names the lead by them, not by its ID.
  const enrolments = new Set(conversation.enrolmentIds.map((id) => id.toLowerCase()));
  const isEnrolment = (value: unknown) => typeof value === 'string' && enrolments.has(value.toLowerCase());
  const leadId = lead.id.toLowerCase();
  // The server takes an ID in any case (`/v1/leads/3C9E...`): so does the journal's erasure.
  const isLeadId = (value: unknown) => typeof value === 'string' && value.toLowerCase() === leadId;
  const seen: JsonObject[] = [lead as unknown as JsonObject];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      const object = value as JsonObject;
      if (isLeadId(object.id)) seen.push(object);
      if (isLeadId(object.lead_id) && typeof object.sequence_lead_id === 'string')
        enrolments.add(object.sequence_lead_id);
      for (const item of Object.values(object)) collect(item);
    }
  };
  for (const entry of entries) {
    collect(entry.body);
    collect(entry.response?.body);
  }
  const personal = seen.flatMap((object) => personalValues(object as unknown as LeadRecord));
  // Its values as URLs encode them too (percent-encoding.ts); not the conversation's texts,
  // which are long and are no URL's.
  const values = [...new Set([...texts, ...personal, ...personal.flatMap(encodedForms)])].sort(
    (a, b) => b.length - a.length,
  );
  const contacts = new Set(
    seen
      .flatMap((object) => [object.email, object.linkedin_profile])
      .filter((value): value is string => typeof value === 'string')
      .map((value) => value.toLowerCase()),
  );
  const isLead = (object: JsonObject) =>
    isLeadId(object.id) ||
    isLeadId(object.lead_id) ||
    [object.email, object.linkedin_profile].some(
      (value) => typeof value === 'string' && contacts.has(value.toLowerCase()),
    );
  /**
   * A part of the lead's conversation: an object with a `channel` (a reply, a message sent, a
   * delivery's event, a `simulateReply` body) that is the lead's or one of its enrolments'.
   * Not every object naming the lead: a batch result's `message` is the service's own text.
   */
  const isConversation = (object: JsonObject) =>
    'channel' in object && (isLead(object) || isEnrolment(object.sequence_lead_id));
  // Bodies hold leads; the path, query and headers are text, where only the values are taken out.
  const erase = <T>(value: T): T =>
    erasedJson(erasedJson(value, isConversation, [], erasedConversationFields), isLead, values);
  const scrub = <T>(value: T): T => erasedJson(value, () => false, values);

  // A path parameter is decoded already, unless it was no valid encoding (then as sent, and
  // decoded here as far as it goes, for a value in it).
  const scrubParam = (value: string): string => {
    const { requested, decoded } = scrubbedBothWays(value, scrub);
    return decoded ?? requested;
  };

  // A request that matched no operation (a method the path does not have: `PUT
  // /v1/leads/{id}`) has no `params`: its path says whose it is.
  const ownPath = `/v1/leads/${leadId}`;
  return (entry) => {
    const path = decodedLeniently(entry.path).toLowerCase();
    const own =
      isLeadId((entry.params as Record<string, string | undefined>).lead_id) ||
      (entry.operationId === null && (path === ownPath || path.startsWith(`${ownPath}/`)));
    // The path as the server read it, decoded (a lead's email as an ID is `%40` in it).
    entry.path = scrubbedPath(entry.path, scrub);
    entry.params = Object.fromEntries(
      Object.entries(entry.params as Record<string, string>).map(([name, value]) => [name, scrubParam(value)]),
    ) as never;
    entry.query = scrub(entry.query);
    entry.headers = scrub(entry.headers);
    entry.body = erase(own ? asLead(entry.body) : entry.body) as never;
    if (entry.response) {
      entry.response.headers = scrub(entry.response.headers);
      entry.response.body = erase(entry.response.body) as never;
    }
  };
}

/** A body sent to the lead's own path: its lead fields erased as the lead row's are. */
function asLead(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy: JsonObject = { ...body };
  for (const [field, erased] of Object.entries(erasedLeadFields)) if (field in copy) copy[field] = erased;
  return copy;
}
