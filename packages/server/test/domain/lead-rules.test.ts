import { describe, expect, it } from 'vitest';
import { hasContact, leadsOffset, pageOf, sameEmail } from '../../src/domain/lead-rules.ts';

describe('lead rules', () => {
  it('needs an email or a LinkedIn profile', () => {
    expect(hasContact({ email: 'maya@acme.com', linkedin_profile: null })).toBe(true);
    expect(hasContact({ email: null, linkedin_profile: 'https://www.linkedin.com/in/maya' })).toBe(true);
    expect(hasContact({ email: null, linkedin_profile: null })).toBe(false);
  });

  it('compares emails case-insensitively', () => {
    expect(sameEmail('Maya.Patel@AcmeRobotics.com', 'maya.patel@acmerobotics.com')).toBe(true);
    expect(sameEmail('maya@acme.com', 'maya@acme.co')).toBe(false);
    expect(sameEmail(null, null)).toBe(false);
    expect(sameEmail('maya@acme.com', null)).toBe(false);
  });

  it('applies offset, else page, else the first page', () => {
    expect(leadsOffset({}, 20)).toBe(0);
    expect(leadsOffset({ page: 1 }, 20)).toBe(0);
    expect(leadsOffset({ page: 3 }, 20)).toBe(40);
    expect(leadsOffset({ page: 3, offset: 5 }, 20)).toBe(5);
    expect(leadsOffset({ offset: 0, page: 9 }, 20)).toBe(0);
  });

  it('reports the page an offset falls in', () => {
    expect(pageOf(0, 20)).toBe(1);
    expect(pageOf(19, 20)).toBe(1);
    expect(pageOf(20, 20)).toBe(2);
    expect(pageOf(45, 20)).toBe(3);
    expect(pageOf(7, 1)).toBe(8);
  });
});
