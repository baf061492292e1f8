/**
 * The checks of `createOcsMock`'s (and `startMockServer`'s) options, made before anything is
 * created: from JavaScript a misspelt option (`seeds`, `baseURL`) or a value of the wrong
 * type was ignored or read as its default (`allowInsecureWebhooks: 'true'` as false), and a
 * wrong `clock` or `fixtures` failed later in the seed with a message naming neither.
 * A wrong type or an unknown name is a `TypeError`; a number out of range a `RangeError`.
 */
import { isPlainObject, optionsOf, shown, wholeNumber } from './option-values.ts';
import { checkRateLimits } from './scenario-options.ts';

/** The names `createOcsMock` takes. */
export const mockOptionNames = [
  'baseUrl',
  'seed',
  'fixtures',
  'rateLimits',
  'clock',
  'allowInsecureWebhooks',
  'journal',
];

/**
 * Throws for what `label` (`createOcsMock`, or `startMockServer` with its own `names`, whose
 * own options it checks itself) cannot honour.
 */
export function checkMockOptions(options: unknown, label: string, names: readonly string[] = mockOptionNames): void {
  if (options === null) throw new TypeError(`@ocs/mock: ${label} takes an options object or nothing, got null.`);
  const given = optionsOf(options, label, names);
  if (given.baseUrl !== undefined && typeof given.baseUrl !== 'string') {
    throw new TypeError(
      `@ocs/mock: baseUrl must be a string such as https://api.ocs.test/v1, got ${shown(given.baseUrl)}.`,
    );
  }
  checkSeed(given.seed);
  checkFixtures(given.fixtures);
  checkRateLimits(given.rateLimits, 'rateLimits');
  checkClock(given.clock);
  if (given.allowInsecureWebhooks !== undefined && typeof given.allowInsecureWebhooks !== 'boolean') {
    throw new TypeError(
      `@ocs/mock: allowInsecureWebhooks must be true or false, got ${shown(given.allowInsecureWebhooks)}.`,
    );
  }
  wholeNumber(optionsOf(given.journal, 'journal', ['limit']).limit, 'journal.limit', 0);
}

function checkSeed(seed: unknown): void {
  if (seed === undefined) return;
  if (typeof seed !== 'number' || !Number.isInteger(seed)) {
    throw new TypeError(`@ocs/mock: seed must be an integer, got ${shown(seed)}.`);
  }
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(
      `@ocs/mock: seed must be a safe integer (from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}), got ${shown(seed)}.`,
    );
  }
}

/**
 * The shape of the fixtures: lists of objects where the API takes them. What is inside each
 * (names, emails, sequences) the API checks when the seed creates it, naming the fixture.
 */
function checkFixtures(fixtures: unknown): void {
  const given = optionsOf(fixtures, 'fixtures', ['campaigns', 'leads']);
  listOfObjects(given.campaigns, 'fixtures.campaigns');
  listOfObjects(given.leads, 'fixtures.leads');
  for (const [index, campaign] of ((given.campaigns as Record<string, unknown>[] | undefined) ?? []).entries()) {
    listOfObjects(campaign.leads, `fixtures.campaigns[${index}].leads`);
    listOfObjects(campaign.webhooks, `fixtures.campaigns[${index}].webhooks`);
    const { senders, activate } = campaign;
    if (senders !== undefined && senders !== 'auto' && !(Array.isArray(senders) && senders.every(isText))) {
      throw new TypeError(
        `@ocs/mock: fixtures.campaigns[${index}].senders must be 'auto' or a list of account IDs, got ${shown(senders)}.`,
      );
    }
    if (activate !== undefined && typeof activate !== 'boolean') {
      throw new TypeError(
        `@ocs/mock: fixtures.campaigns[${index}].activate must be true or false, got ${shown(activate)}.`,
      );
    }
  }
}

function listOfObjects(value: unknown, name: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new TypeError(`@ocs/mock: ${name} must be an array, got ${shown(value)}.`);
  const wrong = value.findIndex((item) => !isPlainObject(item));
  if (wrong >= 0) throw new TypeError(`@ocs/mock: ${name}[${wrong}] must be an object, got ${shown(value[wrong])}.`);
}

const isText = (value: unknown) => typeof value === 'string';

/** An object whose `now()` gives a valid `Date`: asked once here, as the seed will. */
function checkClock(clock: unknown): void {
  if (clock === undefined) return;
  const now = (clock as { now?: unknown } | null)?.now;
  if (typeof now !== 'function') {
    throw new TypeError(
      `@ocs/mock: clock must be an object with a now() method returning a Date, got ${shown(clock)}.`,
    );
  }
  const value: unknown = now.call(clock);
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new TypeError(`@ocs/mock: clock.now() must return a valid Date, got ${shown(value)}.`);
  }
}
