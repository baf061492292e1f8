/** The built-in reply classifier as a table of messages, the reply-text cleaning, and when a reply is not analysed. */
import { describe, expect, it } from 'vitest';
import { analyseReply, notAnalysedReasons } from '../../../src/domain/replies/analysis.ts';
import {
  type ReplyClassification,
  type ReplyClassifier,
  builtInClassifier,
  classifierRules,
} from '../../../src/domain/replies/classifier.ts';
import { hasReplyText, replyText } from '../../../src/domain/replies/reply-text.ts';

const positive: ReplyClassification = { sentiment: 'positive', out_of_office: false };
const neutral: ReplyClassification = { sentiment: 'neutral', out_of_office: false };
const negative: ReplyClassification = { sentiment: 'negative', out_of_office: false };
const away: ReplyClassification = { sentiment: 'neutral', out_of_office: true };

const table: [string, ReplyClassification][] = [
  // Interest, and questions about pricing, time or a demo.
  ["I'm interested", positive],
  ['Sounds good!', positive],
  ['Sounds great, send it over', positive],
  ["Let's talk next week", positive],
  ['Let\u2019s chat on Thursday', positive],
  ['How much does it cost?', positive],
  ['Can you send pricing?', positive],
  ['What time works for you?', positive],
  ['When are you free for a call?', positive],
  ['Is there a demo I can see?', positive],
  ['Interesting. Tell me more', positive],
  ['Yes', positive],
  ['Sure thing!', positive],
  ['Happy to chat, but not this week', positive],
  ['Hi Sam, timing is actually good: we are rebuilding outbound this quarter. Happy to chat next week.', positive],
  // Negation idioms that say nothing negative, and a negated refusal.
  ["Not a problem, let's talk Tuesday", positive],
  ['No problem at all, interested to hear more', positive],
  ["I wouldn't say no to a quick call", positive],
  // Negated interest, declines, one-word refusals.
  ['Not interested.', negative],
  ['NOT INTERESTED', negative],
  ["I'm not really that interested", negative],
  ["I'm no longer interested", negative],
  ["I don't want a demo", negative],
  ['not keen', negative],
  ['No.', negative],
  ['Nope', negative],
  ['No thanks', negative],
  ["We're all set, thanks", negative],
  ['We already use a competitor for this', negative],
  ['Not right now, maybe next quarter', negative],
  ["Thanks, I'll pass", negative],
  ['Thanks, but we are not looking at this. We run outbound in-house.', negative],
  ['Not interested, but the pricing page looks nice', negative],
  // Opt-outs: negative whatever else the reply says.
  ['STOP', negative],
  ['Stop.', negative],
  ['Please unsubscribe me', negative],
  ['Remove me from your list', negative],
  ["Please don't contact me again", negative],
  ['Out of office until Monday. Also, please remove me from this list.', negative],
  // Out of office.
  ["I'm out of office until Monday", away],
  ['OOO until 3 Dec', away],
  ['Automatic reply: Sam is away', away],
  ['I am on vacation until the 5th.', away],
  ['I am away until 14 January and will reply when back.', away],
  ['This is an auto-reply. I have limited access to email this week.', away],
  ['On parental leave, back in March', away],
  // Neither.
  ['Who is this?', neutral],
  ['Got it, thanks', neutral],
  ['Please talk to my colleague Jane', neutral],
  ['Ok', neutral],
  ['Oooh, a newsletter?', neutral],
];

describe('builtInClassifier', () => {
  it.each(table)('%j', async (message, expected) => {
    expect(await builtInClassifier.classify({ message, channel: 'email' })).toEqual(expected);
  });

  it('classifies the same on both channels', async () => {
    for (const [message, expected] of table) {
      expect(await builtInClassifier.classify({ message, channel: 'linkedin' })).toEqual(expected);
    }
  });

  it('reads only the prospect\u2019s words, not the quoted outreach below them', async () => {
    const message =
      'Sounds good\n\nOn Mon, Nov 3, 2026 at 9:00 AM Sam <sam@x.com> wrote:\n> Not interested? Unsubscribe here';
    expect(await builtInClassifier.classify({ message, channel: 'email' })).toEqual(positive);
    const quotedLines = 'Who are you?\n> Would a demo be useful? Reply STOP to opt out';
    expect(await builtInClassifier.classify({ message: quotedLines, channel: 'email' })).toEqual(neutral);
  });

  it('matches whole words only', async () => {
    // "interested" inside "uninterested" must not read as interest; "ooo" inside "Oooh" is no OOO.
    expect(await builtInClassifier.classify({ message: 'Frankly uninterested', channel: 'email' })).toEqual(negative);
    expect(await builtInClassifier.classify({ message: 'The stopwatch app?', channel: 'email' })).toEqual(neutral);
  });

  it('has the phrase families the header documents', () => {
    expect(classifierRules.outOfOffice).toEqual(
      expect.arrayContaining([
        'out of office',
        'on vacation',
        'away until',
        'auto-reply',
        'ooo',
        'limited access to email',
      ]),
    );
    expect(classifierRules.optOut).toEqual(expect.arrayContaining(['unsubscribe']));
    expect(classifierRules.interest).toEqual(expect.arrayContaining(['sounds good', "let's talk", 'interested']));
  });
});

describe('replyText', () => {
  it.each([
    ['Yes please\n\nSent from my iPhone', 'Yes please'],
    ['Yes\r\n-- \r\nMaya Patel\r\nCEO', 'Yes'],
    ['Thanks!\n-----Original Message-----\nFrom: Sam\nHi Maya', 'Thanks!'],
    ['Call me\nGet Outlook for Android', 'Call me'],
    ['> quoted only\n> more', ''],
    ['Sent from my iPhone', ''],
    ['', ''],
  ])('%j → %j', (message, expected) => {
    expect(replyText(message)).toBe(expected);
  });

  it('tells whether anything is left to analyse', () => {
    expect(hasReplyText('Sent from my iPhone')).toBe(false);
    expect(hasReplyText('  \n-- \nSam')).toBe(false);
    expect(hasReplyText(null)).toBe(false);
    expect(hasReplyText('?')).toBe(false);
    expect(hasReplyText('ok')).toBe(true);
  });
});

describe('analyseReply', () => {
  const failing: ReplyClassifier = { classify: () => Promise.reject(new Error('provider down')) };
  const junk = {
    classify: () => Promise.resolve({ sentiment: 'great', out_of_office: 'no' }),
  } as unknown as ReplyClassifier;
  const silent: ReplyClassifier = { classify: () => new Promise(() => {}) };

  it('classifies a reply with text', async () => {
    expect(await analyseReply(builtInClassifier, { message: 'Sounds good', channel: 'email' })).toEqual({
      analysed: true,
      classification: positive,
    });
  });

  it('does not analyse a reply with no text of the prospect\u2019s own', async () => {
    for (const message of [null, '', '   ', 'Sent from my iPhone', '> Hi Maya, quick question']) {
      expect(await analyseReply(builtInClassifier, { message, channel: 'email' })).toEqual({
        analysed: false,
        reason: notAnalysedReasons.noText,
      });
    }
  });

  it('does not analyse when the classifier rejects, answers junk or does not answer in time', async () => {
    const unavailable = { analysed: false, reason: 'skipped: classification unavailable' };
    expect(await analyseReply(failing, { message: 'Yes', channel: 'email' })).toEqual(unavailable);
    expect(await analyseReply(junk, { message: 'Yes', channel: 'email' })).toEqual(unavailable);
    expect(await analyseReply(silent, { message: 'Yes', channel: 'email' }, { timeoutMs: 5 })).toEqual(unavailable);
  });

  it('hands the classifier the cleaned text and the channel', async () => {
    const seen: unknown[] = [];
    const spy: ReplyClassifier = {
      classify: async (input) => {
        seen.push(input);
        return neutral;
      },
    };
    await analyseReply(spy, { message: 'Maybe\n\nSent from my iPhone', channel: 'linkedin' });
    expect(seen).toEqual([{ message: 'Maybe', channel: 'linkedin' }]);
  });
});
