/** The connect pages' stylesheet and the hash the Content-Security-Policy allows it by. */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src/connect/page-headers.ts';
import { pageStyle, pageStyleHash } from '../../src/connect/page-style.ts';

it('allows the stylesheet by its own SHA-256 (change the constant with the style)', () => {
  expect(pageStyleHash).toBe(createHash('sha256').update(pageStyle).digest('base64'));
  expect(contentSecurityPolicy()).toContain(`style-src 'sha256-${pageStyleHash}'`);
});
