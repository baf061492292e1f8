/** Rules of leads that need no I/O: how a lead is reached, email matching, `page` paging. */
import { foldCase } from './fold-case.ts';

/**
 * The lead's own data fields (section 6's lead object): what a caller may set and update,
 * what a placeholder may name, and what erasure takes out of every copy.
 */
export const leadDataFields = [
  'email',
  'first_name',
  'last_name',
  'company',
  'title',
  'industry',
  'website',
  'linkedin_profile',
  'annual_revenue',
  'employee_count',
] as const;

/** A lead needs a way to reach it: an `email` or a `linkedin_profile`. */
export function hasContact(lead: { email: string | null; linkedin_profile: string | null }): boolean {
  return lead.email !== null || lead.linkedin_profile !== null;
}

/** Emails are compared case-insensitively, as the store's unique index does (`lower(email)`). */
export function sameEmail(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && foldCase(a) === foldCase(b);
}

/**
 * The offset `GET /leads` applies: `offset` when sent (it wins over `page`), else the start
 * of `page` (from 1), else 0.
 */
export function leadsOffset(query: { offset?: number; page?: number }, limit: number): number {
  if (query.offset !== undefined) return query.offset;
  return ((query.page ?? 1) - 1) * limit;
}

/** The page (from 1) that `offset` falls in, as `GET /leads` reports it. */
export function pageOf(offset: number, limit: number): number {
  return Math.floor(offset / limit) + 1;
}
