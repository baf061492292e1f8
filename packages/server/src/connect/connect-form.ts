/**
 * The connect page's form, checked: for a new mailbox its address (and a display name, the
 * address when left empty); for a new LinkedIn account a display name and the username (a
 * profile's address is read too). A link that reconnects asks nothing. Each problem is said
 * at its field, and the page shows the form again with what was typed.
 */
import type { NewAccountFields } from '../domain/connected-account.ts';
import type { ConnectLinkRecord } from '../store/records.ts';
import { unprintable } from '../domain/unprintable-text.ts';

export const formFieldNames = ['email', 'label', 'platform_username'] as const;
export type FormFieldName = (typeof formFieldNames)[number];

/** What was typed, to show again; and what is wrong, by field. */
export type FormValues = Partial<Record<FormFieldName, string>>;
export type FieldProblems = Partial<Record<FormFieldName, string>>;

export type FormCheck =
  { ok: true; fields: NewAccountFields | null } | { ok: false; values: FormValues; problems: FieldProblems };

/** Longest accepted values (the longest address RFC 5321 allows; LinkedIn's username limit). */
export const fieldLimits = { email: 254, label: 200, platform_username: 100 } as const;

/**
 * What a one-line name must not hold (`unprintable`: control characters, line separators,
 * bidi controls, which could make a label show as another), a lone surrogate, and U+FFFD,
 * which stands for bytes that were not UTF-8.
 */
const unreadable = (value: string) => value.search(unprintable) >= 0 || /[\p{Cs}\uFFFD]/u.test(value);
const emailForm = /^[^\s@]{1,64}@[^\s@.]+(?:\.[^\s@.]+)+$/u;
const usernameForm = /^[\p{L}\p{N}-]{3,100}$/u;
/** A profile's address pasted in place of the username: `https://www.linkedin.com/in/sam-carter/`. */
const profileUrl = /^(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/([^/?#\s]+)\/?(?:[?#].*)?$/iu;

export function checkConnectForm(
  link: Pick<ConnectLinkRecord, 'platform' | 'account_id'>,
  form: URLSearchParams,
): FormCheck {
  // A reconnect asks nothing: whatever was sent is not read.
  if (link.account_id !== null) return { ok: true, fields: null };
  const values: FormValues = {};
  const problems: FieldProblems = {};
  const read = (name: FormFieldName): string => {
    const given = form.getAll(name);
    values[name] = given[0] ?? '';
    if (given.length > 1) problems[name] = 'was sent more than once; send it once.';
    return (given[0] ?? '').trim();
  };
  const check = (name: FormFieldName, value: string, label: string, required: boolean): string => {
    if (problems[name] !== undefined) return value;
    if (value === '') {
      if (required) problems[name] = `Enter ${label}.`;
    } else if (value.length > fieldLimits[name]) {
      problems[name] = `${capitalized(label)} can be at most ${fieldLimits[name]} characters.`;
    } else if (unreadable(value)) {
      problems[name] =
        `${capitalized(label)} holds a character that cannot be used (a line break or a control character).`;
    }
    return value;
  };

  let fields: NewAccountFields;
  if (link.platform === 'email') {
    const email = check('email', read('email'), 'the email address', true);
    const label = check('label', read('label'), 'the display name', false);
    if (problems.email === undefined && !emailForm.test(email)) {
      problems.email = 'Enter an email address such as name@example.com.';
    }
    fields = { platform: 'email', email, label: label === '' ? email : label };
  } else {
    const label = check('label', read('label'), 'the display name', true);
    const given = check('platform_username', read('platform_username'), 'the LinkedIn username', true);
    const username = usernameOf(given);
    if (problems.platform_username === undefined && !usernameForm.test(username)) {
      problems.platform_username =
        'Enter the username from your profile’s address, linkedin.com/in/username: 3 to 100 letters, digits or hyphens.';
    }
    fields = { platform: 'linkedin', label, platform_username: username };
  }
  return Object.keys(problems).length > 0 ? { ok: false, values, problems } : { ok: true, fields };
}

/** The username itself, from a profile's address when one was pasted. */
function usernameOf(given: string): string {
  const match = profileUrl.exec(given);
  if (!match?.[1]) return given;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
