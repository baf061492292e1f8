/**
 * Reply classification: the `sentiment` and `out_of_office` of `ai_response` (section 6),
 * and the reply classes that analytics count (domain/activity.ts, `replyClass`).
 *
 * `builtInClassifier` is deterministic and rule-based (English). It reads only the
 * prospect's own words (reply-text.ts removes quoted history, signatures and mobile
 * footers) and matches whole-word phrases (phrases.ts: any case, contractions spelled out,
 * negation within 3 words of the same clause). The rules, first match wins:
 *
 * 1. Opt-out → `negative`, not out of office: "unsubscribe", "remove me", "stop emailing",
 *    "do not contact"... or the whole reply being "stop". First because an opt-out must be
 *    honoured even inside an out-of-office text, and must never be waited out or answered.
 * 2. Out of office → `neutral`, `out_of_office: true`: "out of office", "OOO", "on vacation",
 *    "away until", "auto-reply", "limited access to email"... An automatic reply says
 *    nothing of the prospect's opinion, hence neutral.
 * 3. Negative → `negative`: a decline phrase ("no thanks", "not a fit", "already have a
 *    solution", "not right now"...), a one-word refusal ("No.", "Nope"), or a positive phrase
 *    under a negation ("not interested", "no longer interested", "don't want a demo"). A
 *    reply that both declines and says something positive is negative: the agent must not
 *    push a prospect who said no.
 * 4. Positive → `positive`: interest ("interested", "sounds good", "let's talk", "tell me
 *    more"), a question about pricing, time or a demo ("how much", "pricing", "what time",
 *    "when are you free", "demo"), or a one-word yes ("Yes", "Sure").
 * 5. Anything else → `neutral` ("Who is this?", "Please talk to my colleague").
 *
 * Negation idioms that say nothing negative ("no problem", "not a problem", "no worries")
 * are ignored, so "No problem, let's talk" is positive. Negation flips positive phrases
 * only: decline phrases already carry their own negation ("not interested" is both).
 */
import { type PhraseList, hasNegated, hasPlain, phraseList, prepareText, wordsOnly } from './phrases.ts';
import { replyText } from './reply-text.ts';

export type Sentiment = 'positive' | 'neutral' | 'negative';
export type ReplyChannel = 'email' | 'linkedin';

export interface ReplyClassification {
  sentiment: Sentiment;
  out_of_office: boolean;
}

/**
 * What classifies a prospect's reply. The service calls it once per reply that has text
 * (analysis.ts decides that), with the prospect's own words: quoted history, signatures and
 * mobile footers already removed.
 *
 * This is where a model provider plugs in: an implementation may call a language model
 * (prompted with the message and channel, answering the two fields). It must:
 * - resolve to exactly these two fields, `sentiment` one of the three values; anything
 *   else is treated as a failed classification;
 * - reject (or let the caller's timeout expire) when it cannot classify, rather than
 *   guess: the reply is then sent as not analysed (`goal: "skipped: classification
 *   unavailable"`), which receivers can tell apart from a neutral reply;
 * - answer `negative` for any opt-out, whatever else the message says (the reply agent
 *   closes such conversations and never answers them);
 * - be safe to call concurrently and keep no state between calls: the same message may be
 *   classified again (a redelivery), and the outcome is recorded in analytics.
 */
export interface ReplyClassifier {
  classify(input: { message: string; channel: ReplyChannel }): Promise<ReplyClassification>;
}

const optOut = phraseList([
  'unsubscribe',
  'remove me',
  'take me off',
  'opt out',
  'opt me out',
  'stop emailing',
  'stop messaging',
  'stop contacting',
  'stop sending',
  'stop reaching out',
  'please stop',
  "don't contact",
  "don't email",
  "don't message",
  "don't call",
  "don't reach out",
  "don't follow up",
  'never contact',
  'leave me alone',
  'this is spam',
  'report you',
]);
const optOutWholeReplies = new Set(['stop', 'stop please', 'please stop', 'unsubscribe']);

const outOfOffice = phraseList([
  'out of office',
  'out of the office',
  'ooo',
  'on vacation',
  'on holiday',
  'on holidays',
  'on annual leave',
  'on leave',
  'on parental leave',
  'on maternity leave',
  'on paternity leave',
  'on sick leave',
  'away until',
  'away from the office',
  'away from my desk until',
  'currently away',
  "i'm away",
  'auto-reply',
  'auto reply',
  'autoreply',
  'automatic reply',
  'automated reply',
  'auto-response',
  'automatic response',
  'autoresponder',
  'limited access to email',
  'limited access to my email',
  'limited email access',
  'without access to email',
  'back in the office on',
  "i'll be back on",
  'i will return on',
]);

const decline = phraseList([
  'uninterested',
  'disinterested',
  'no interest',
  'not a fit',
  'not a good fit',
  'not the right fit',
  'not a priority',
  'no thanks',
  'no thank you',
  'not for us',
  'not for me',
  'not looking',
  'not at this time',
  'not right now',
  'not now',
  'not the right time',
  "we're all set",
  'already have a solution',
  'already have a provider',
  'already have a vendor',
  'already work with',
  'already use',
  'already using',
  "don't need",
  'no need',
  'no budget',
  'not relevant',
  'irrelevant',
  'go away',
  'we will pass',
  "i'll pass",
  'pass on this',
  'waste of time',
  'not in the market',
]);
const declineWholeReplies = new Set(['no', 'nope', 'nah', 'no thanks', 'no thank you', 'not interested']);

const interest = phraseList([
  'interested',
  'interesting',
  'sounds good',
  'sounds great',
  'sounds like a plan',
  "let's talk",
  "let's chat",
  "let's connect",
  "let's meet",
  "let's set up",
  "let's schedule",
  "let's do it",
  'happy to chat',
  'happy to talk',
  'happy to connect',
  'happy to meet',
  'happy to learn',
  'glad to chat',
  'would love to',
  "i'd love to",
  'keen',
  'tell me more',
  'send me more',
  'more info',
  'more information',
  'more details',
  'pricing',
  'price',
  'prices',
  'cost',
  'costs',
  'how much',
  'quote',
  'demo',
  'a call',
  'quick call',
  'book a time',
  'schedule a',
  'set up a',
  'what time',
  'what times',
  'which time',
  'when are you free',
  'when are you available',
  'are you free',
  'are you available',
  'what works for you',
  'works for me',
  'count me in',
  'why not',
  'yes please',
]);
const interestWholeReplies = new Set([
  'yes',
  'yes please',
  'sure',
  'sure thing',
  'yep',
  'yeah',
  'absolutely',
  'definitely',
]);

const matchesWhole = (words: string, set: ReadonlySet<string>) =>
  set.has(words) || set.has(words.replace(/ thanks?$/, ''));
const hasAny = (list: PhraseList, prepared: string) => list.find(prepared).length > 0;

/** The rules of the file header, on text already reduced to the prospect's own words. */
export function classifyText(message: string): ReplyClassification {
  const prepared = prepareText(replyText(message));
  const words = wordsOnly(prepared);
  if (optOutWholeReplies.has(words) || hasAny(optOut, prepared)) return { sentiment: 'negative', out_of_office: false };
  if (hasPlain(outOfOffice, prepared)) return { sentiment: 'neutral', out_of_office: true };
  if (matchesWhole(words, declineWholeReplies) || hasPlain(decline, prepared) || hasNegated(interest, prepared)) {
    return { sentiment: 'negative', out_of_office: false };
  }
  if (interestWholeReplies.has(words) || hasPlain(interest, prepared)) {
    return { sentiment: 'positive', out_of_office: false };
  }
  return { sentiment: 'neutral', out_of_office: false };
}

/** The deterministic, rule-based classifier the service uses when no model is configured. */
export const builtInClassifier: ReplyClassifier = {
  classify: async ({ message }) => classifyText(message),
};

/** The phrase lists, for documentation and tests. */
export const classifierRules = {
  optOut: optOut.phrases,
  outOfOffice: outOfOffice.phrases,
  decline: decline.phrases,
  interest: interest.phrases,
} as const;
