/**
 * Whether a reply says the prospect booked the meeting ("Just booked a slot for Tuesday").
 * The reply agent reads it only once it has asked for a booking (booking link sent, or the
 * prospect soft-committed), so that "we already booked a vendor" in a first reply is not
 * taken for a meeting. A negated phrase ("haven't booked yet") does not count.
 */
import { hasPlain, phraseList, prepareText } from './phrases.ts';
import { replyText } from './reply-text.ts';

const bookedPhrases = phraseList([
  'booked',
  'scheduled a time',
  'scheduled a call',
  'scheduled a meeting',
  'picked a slot',
  'picked a time',
  'grabbed a slot',
  'grabbed a time',
  'accepted the invite',
  'accepted your invite',
  'see you then',
]);

export const saysBooked = (message: string | null) => hasPlain(bookedPhrases, prepareText(replyText(message)));
