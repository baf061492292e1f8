/**
 * Every migration, in order. A migration is never edited once released: add a new one.
 *
 * There is no 003: the number was skipped when 004 was written, and 004 onwards have
 * shipped. A database records the versions it applied in `schema_migrations` (and the
 * PGlite template lists them by version and hash), so renumbering 004.. down would make an
 * existing data directory run a shipped migration a second time under its new number. The
 * gap stays; a new migration takes the next number after the highest.
 */
import { migration001 } from './001-initial.ts';
import { migration002 } from './002-activity.ts';
import { migration004 } from './004-connect-links.ts';
import { migration005 } from './005-one-default-pipeline.ts';
import { migration006 } from './006-deliveries.ts';
import { migration007 } from './007-engine.ts';
import { migration008 } from './008-sandbox-clock.ts';
import { migration009 } from './009-erasure.ts';
import { migration010 } from './010-campaign-lead-order.ts';
import { migration011 } from './011-unlogged-rate-limits.ts';
import { migration012 } from './012-lz4-stored-answers.ts';
import { migration013 } from './013-no-statistics-of-personal-data.ts';
import { migration014 } from './014-account-messages-by-day.ts';
import { migration015 } from './015-lead-copies-by-lead.ts';
import { migration016 } from './016-enrolment-due-times.ts';
import { migration017 } from './017-enrolment-due-order.ts';
import { migration018 } from './018-real-time-leases.ts';
import { migration019 } from './019-sender-identity.ts';
import { migration020 } from './020-lists-cost-with-the-page.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
];
