/** The ordered rules of a webhook registration, as a table of situations. */
import { describe, expect, it } from 'vitest';
import { type SlotWebhook, decideRegistration } from '../../src/domain/webhook-slot.ts';

const holder: SlotWebhook = { id: 'holder', url: 'https://a.example.com/', enabled: true };
const disabledSame: SlotWebhook = { id: 'old', url: 'https://b.example.com/', enabled: false };

describe('decideRegistration', () => {
  it('1. answers DUPLICATE for the active URL, whatever replace says', () => {
    for (const replace of [false, true]) {
      expect(decideRegistration({ holder, sameUrl: holder, replace })).toEqual({
        kind: 'duplicate',
        webhookId: 'holder',
      });
    }
  });

  it('2. answers SLOT_TAKEN when a different URL holds the slot, even if a disabled webhook has the URL', () => {
    expect(decideRegistration({ holder, sameUrl: null, replace: false })).toEqual({
      kind: 'slot_taken',
      webhookId: 'holder',
    });
    expect(decideRegistration({ holder, sameUrl: disabledSame, replace: false })).toEqual({
      kind: 'slot_taken',
      webhookId: 'holder',
    });
  });

  it('3. repoints the holder with replace, or swaps in a disabled webhook that has the URL', () => {
    expect(decideRegistration({ holder, sameUrl: null, replace: true })).toEqual({ kind: 'repoint', holder });
    expect(decideRegistration({ holder, sameUrl: disabledSame, replace: true })).toEqual({
      kind: 'swap',
      holder,
      target: disabledSame,
    });
  });

  it('4. re-enables a disabled webhook with the URL when the slot is free', () => {
    for (const replace of [false, true]) {
      expect(decideRegistration({ holder: null, sameUrl: disabledSame, replace })).toEqual({
        kind: 're_enable',
        target: disabledSame,
      });
    }
  });

  it('5. creates a webhook otherwise', () => {
    for (const replace of [false, true]) {
      expect(decideRegistration({ holder: null, sameUrl: null, replace })).toEqual({ kind: 'create' });
    }
  });
});
