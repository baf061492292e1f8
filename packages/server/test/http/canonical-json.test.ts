/**
 * The canonical JSON of an idempotency fingerprint: the native property-list form gives the
 * same text as sorting each object's entries in a replacer (the form keys were fingerprinted
 * with before), for any JSON value, so a key claimed before an upgrade still replays after it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonByReplacer } from '../../src/http/idempotency.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth, integer keys first as JavaScript orders them', () => {
    const value = { b: 1, a: { '10': 1, '2': [{ y: 1, x: 2 }], '01': 3, Z: null, é: true } };
    expect(canonicalJson(value)).toBe('{"a":{"2":[{"x":2,"y":1}],"10":1,"01":3,"Z":null,"é":true},"b":1}');
  });

  it('does not depend on the order keys were written in', () => {
    expect(canonicalJson(JSON.parse('{"leads":[{"email":"a@x.io","first_name":"A"}]}'))).toBe(
      canonicalJson(JSON.parse('{"leads":[{"first_name":"A","email":"a@x.io"}]}')),
    );
  });

  it('writes a key __proto__ only where an object has it', () => {
    const value = JSON.parse('[{"__proto__":{"a":1}},{"b":2}]') as unknown;
    expect(canonicalJson(value)).toBe('[{"__proto__":{"a":1}},{"b":2}]');
  });

  it('answers as the replacer form for any JSON value', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '01', '4294967294', '4294967295', '-1', 'a'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.array(tie('value')),
        fc.dictionary(key, tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        // Through JSON text, as a request body arrives.
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(parsed)).toBe(canonicalJsonByReplacer(parsed));
      }),
      { numRuns: 500 },
    );
  });
});
