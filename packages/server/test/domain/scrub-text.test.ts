/** Finding a lead's values in free text for erasure, without a regular expression of them. */
import { expect, it } from 'vitest';
import { foldCase, replaceValues } from '../../src/domain/scrub-text.ts';
import { scrubText } from '../../src/domain/erasure.ts';

it('scrubs a value of thousands of accented letters, which a regular expression of it could not compile', () => {
  const name = 'é'.repeat(20_000);
  const text = `Notes: ${name.toUpperCase()} called; ${name}x is another word`;
  expect(scrubText(text, [name])).toBe(`Notes: [erased] called; ${name}x is another word`);
});

it('prefers the longest value at one place, and resumes after a match (no overlaps)', () => {
  expect(replaceValues('al.ng@acme.example and Al', ['al.ng@acme.example', 'acme.example', 'Al'], '#')).toBe('# and #');
  expect(replaceValues('-----', ['--'], '#')).toBe('##-');
});

it('checks the boundary by letters and digits beyond the BMP too, and not where a value starts with a sign', () => {
  expect(replaceValues('𝐀Al Al', ['Al'], '#')).toBe('𝐀Al #');
  expect(replaceValues('x+33 6 12', ['+33 6 12'], '#')).toBe('x#');
});

it('folds case without moving any index, leaving the characters whose folding changes length', () => {
  for (const text of ['İstanbul', 'Straße', 'ſKelvinK', 'plain']) expect(foldCase(text)).toHaveLength(text.length);
  expect(foldCase('ſ')).toBe('s');
  expect(replaceValues('STRASSE and straße', ['Straße'], '#')).toBe('STRASSE and #');
  expect(replaceValues('İstanbul office', ['İstanbul'], '#')).toBe('# office');
});

it('folds a sigma the same way wherever it stands, so a Greek name is found beside an ß', () => {
  // Lower-casing a whole string gives a word's final capital sigma as ς; a text with an ß is
  // folded a character at a time, which gives σ: the value and the text did not meet.
  expect(foldCase('ΝΊΚΟΣ')).toBe(foldCase('Νίκοσ'));
  expect(scrubText('Treffen Straße: Νίκος Παπαδόπουλος', ['Παπαδόπουλος', 'Νίκος'])).toBe(
    'Treffen Straße: [erased] [erased]',
  );
  expect(scrubText('ΠΑΠΑΔΌΠΟΥΛΟΣ, Straße', ['Παπαδόπουλος'])).toBe('[erased], Straße');
});
