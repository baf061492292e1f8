/**
 * Finding English phrases in a reply the way a reader would: whole words only, any case,
 * any run of spaces between words, curly or straight apostrophes, contractions spelled out
 * ("don't" and "do not" are the same phrase), and with negation noticed ("not really
 * interested" is a negated "interested").
 */

const contractions: readonly [RegExp, string][] = [
  [/\bwon't\b/g, 'will not'],
  [/\bcan't\b/g, 'can not'],
  [/\bcannot\b/g, 'can not'],
  [/\bshan't\b/g, 'shall not'],
  [/\blet's\b/g, 'let us'],
  [/n't\b/g, ' not'],
  [/'re\b/g, ' are'],
  [/'m\b/g, ' am'],
  [/'ll\b/g, ' will'],
  [/'ve\b/g, ' have'],
  [/'d\b/g, ' would'],
];

/**
 * Lower case, straight apostrophes, contractions spelled out, one space between words.
 * Phrase lists go through the same function, so they can be written naturally.
 */
export function normaliseText(text: string): string {
  let normalised = text.toLowerCase().replace(/[\u2018\u2019\u02bc`]/g, "'");
  for (const [contraction, spelled] of contractions) normalised = normalised.replace(contraction, spelled);
  return normalised.replace(/[^\S\n]+/g, ' ');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A global, whole-word pattern for one (normalised) phrase; spaces match any whitespace. */
function wholePhrase(phrase: string): RegExp {
  const body = phrase.split(' ').map(escapeRegExp).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'gu');
}

/**
 * Idioms that contain a negator but say nothing negative ("no problem, let's talk"). They
 * are replaced by a clause break before matching, so their "no" or "not" neither matches a
 * negative phrase nor negates the words that follow.
 */
const harmlessIdioms = ['no problem', 'not a problem', 'no worries', 'no doubt', 'not only', 'no pressure'];
let harmlessNegations: RegExp[] | undefined;

/** `text` normalised, with harmless negation idioms turned into clause breaks. */
export function prepareText(text: string): string {
  let prepared = normaliseText(text);
  harmlessNegations ??= harmlessIdioms.map((idiom) => wholePhrase(normaliseText(idiom)));
  for (const idiom of harmlessNegations) prepared = prepared.replace(idiom, ',');
  return prepared;
}

/** Words that negate a phrase when they stand shortly before it in the same clause. */
const negators = new Set(['not', 'no', 'never', 'without', 'nor', 'neither', 'hardly', 'barely']);
/** How many words before a phrase a negator may stand ("not really that interested"). */
const negationReach = 3;
const clauseBreak = /[.,;:!?\n()]|\bbut\b|\bhowever\b|\bthough\b/u;

/**
 * Whether the phrase at `index` of prepared `text` is negated within its clause: the
 * nearest negator among the `negationReach` words before it, unless that negator is itself
 * negated the same way ("would not say no to a call" is not a refusal of the call).
 */
function isNegatedAt(text: string, index: number): boolean {
  const clause = text.slice(0, index).split(clauseBreak).at(-1) ?? '';
  const words = clause.match(/[\p{L}\p{N}']+/gu) ?? [];
  return negatedBefore(words, words.length);
}

function negatedBefore(words: readonly string[], end: number): boolean {
  for (let at = end - 1; at >= Math.max(0, end - negationReach); at--) {
    if (negators.has(words[at] ?? '')) return !negatedBefore(words, at);
  }
  return false;
}

export interface PhraseList {
  /** The phrases as written, for the documentation and the tests. */
  readonly phrases: readonly string[];
  /** Every occurrence in prepared text, and whether each is negated. */
  find(prepared: string): { phrase: string; negated: boolean }[];
}

/**
 * The patterns are built on the list's first use: a Unicode-property pattern costs a
 * fraction of a millisecond to build, and the lists hold hundreds of phrases, so building
 * them when the module loads added about 100 ms to every start (server and mock) that may
 * never classify a reply.
 */
export function phraseList(phrases: readonly string[]): PhraseList {
  let patterns: { phrase: string; pattern: RegExp }[] | undefined;
  return {
    phrases,
    find(prepared) {
      patterns ??= phrases.map((phrase) => ({ phrase, pattern: wholePhrase(normaliseText(phrase)) }));
      return patterns.flatMap(({ phrase, pattern }) =>
        [...prepared.matchAll(pattern)].map((match) => ({ phrase, negated: isNegatedAt(prepared, match.index) })),
      );
    },
  };
}

/** Whether some phrase of `list` occurs in prepared text without a negation. */
export const hasPlain = (list: PhraseList, prepared: string) => list.find(prepared).some((hit) => !hit.negated);

/** Whether some phrase of `list` occurs in prepared text under a negation. */
export const hasNegated = (list: PhraseList, prepared: string) => list.find(prepared).some((hit) => hit.negated);

/** The whole reply reduced to its words ("No, thanks!" → "no thanks"), to match one-word answers. */
export const wordsOnly = (prepared: string) =>
  prepared
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
