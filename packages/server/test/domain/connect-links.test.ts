import { describe, expect, it } from 'vitest';
import {
  connectLinkExpiry,
  connectLinkLifetimeMs,
  connectLinkUrl,
  generateConnectToken,
} from '../../src/domain/connect-links.ts';
import { randomBase62 } from '../../src/domain/random.ts';

describe('connect links', () => {
  it('makes unguessable tokens: cl_ and 24 base62 characters, never repeated', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateConnectToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^cl_[A-Za-z0-9]{24}$/);
  });

  it('uses every base62 character', () => {
    const seen = new Set(randomBase62(5000));
    expect(seen.size).toBe(62);
    expect(randomBase62(0)).toBe('');
    expect(randomBase62(100)).toHaveLength(100);
  });

  it('expires one hour after creation', () => {
    expect(connectLinkLifetimeMs).toBe(3_600_000);
    expect(connectLinkExpiry(new Date('2026-11-06T10:45:00.000Z')).toISOString()).toBe('2026-11-06T11:45:00.000Z');
  });

  it('points at this server', () => {
    expect(connectLinkUrl('http://127.0.0.1:4010', 'cl_abc')).toBe('http://127.0.0.1:4010/connect/cl_abc');
    expect(connectLinkUrl('https://ocs.example.com/', 'cl_abc')).toBe('https://ocs.example.com/connect/cl_abc');
  });
});
