/** Every migration, in order. A migration is never edited once released: add a new one. */
import { migration001 } from './001-initial.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [migration001];
