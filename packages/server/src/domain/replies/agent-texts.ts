/**
 * The words of the built-in reply agent: the message it sends (`responder_message`) and the
 * brief it leaves for a sales rep (`sdr_brief`). Templates, not a model: short, polite, and
 * built only from the lead fields the event carries. The settings' `instructions` (tone,
 * content) are for a model-backed agent; the templates do not read them.
 */
import type { ReplyChannel, Sentiment } from './classifier.ts';

export interface BriefLead {
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  company: string | null;
}

const greeting = (lead: BriefLead | null) => (lead?.first_name ? `, ${lead.first_name}` : '');

export const responderTexts = {
  positiveWithLink: (lead: BriefLead | null, bookingUrl: string) =>
    `Great to hear${greeting(lead)}! Here is my calendar, pick any time that suits you: ${bookingUrl}`,
  positiveWithoutLink: (lead: BriefLead | null) =>
    `Great to hear${greeting(lead)}! Which day and time would suit you for a short call?`,
  neutral: (lead: BriefLead | null) =>
    `Thanks for getting back to me${greeting(lead)}. Would a short call be useful to see whether this is relevant for ${lead?.company ?? 'you'}?`,
};

/** "Maya Patel (Co-founder & CEO, Acme Robotics)", or "The lead" when nothing is known (an erased lead). */
function who(lead: BriefLead | null): string {
  const name = [lead?.first_name, lead?.last_name].filter(Boolean).join(' ');
  const role = [lead?.title, lead?.company].filter(Boolean).join(', ');
  if (name === '') return role === '' ? 'The lead' : `The lead (${role})`;
  return role === '' ? name : `${name} (${role})`;
}

const channelName: Record<ReplyChannel, string> = { email: 'email', linkedin: 'LinkedIn' };

/** What the reply was, in one sentence: "Maya Patel (CEO, Acme) replied positively by email." */
export function replySummary(
  lead: BriefLead | null,
  channel: ReplyChannel,
  reply: { sentiment: Sentiment; out_of_office: boolean },
): string {
  const what = reply.out_of_office
    ? 'sent an out-of-office reply'
    : { positive: 'replied positively', neutral: 'replied', negative: 'replied negatively' }[reply.sentiment];
  return `${who(lead)} ${what} by ${channelName[channel]}.`;
}
