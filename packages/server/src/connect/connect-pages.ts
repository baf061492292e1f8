/**
 * The connect pages' markup: the form, the page after connecting, and the pages that say why
 * a link cannot be used. Every value shown goes through `html`, which escapes it.
 */
import type { ConnectLinkRecord, OrganizationRecord, SenderAccountRecord } from '../store/records.ts';
import type { FieldProblems, FormFieldName, FormValues } from './connect-form.ts';
import { fieldLimits } from './connect-form.ts';
import { Html, html } from './html.ts';
import { pageStyle } from './page-style.ts';

/** What a usable link's page shows: the link, its organization and, for a reconnect, the account. */
export interface LinkView {
  link: ConnectLinkRecord;
  organization: OrganizationRecord;
  /** The account the link reconnects; null when it adds one. */
  account: SenderAccountRecord | null;
}

const platformNames = { email: 'mailbox', linkedin: 'LinkedIn account' } as const;

/** A whole page: the document around `body`. */
export function pageDocument(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${title}</title>
        ${styleElement}
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.text;
}

/**
 * The stylesheet is ours, not input: put in as it is, and as one piece, so that the element
 * holds exactly the text whose hash the policy allows (a formatter's whitespace around it,
 * inside the element, would make the browser refuse it).
 */
const styleElement = new Html(`<style>${pageStyle}</style>`);

/** The form page: what will be connected, to which organization, and the fields to fill in. */
export function formPage(view: LinkView, values: FormValues = {}, problems: FieldProblems = {}): string {
  const { link, organization, account } = view;
  const what = platformNames[link.platform];
  const title = account ? `Reconnect a ${what}` : `Connect a ${what}`;
  const signIn = link.platform === 'email' ? 'signing in to the mailbox' : 'signing in to LinkedIn';
  const hasProblems = Object.keys(problems).length > 0;
  const fields = account
    ? html`<dl>${accountDetails(account)}</dl>`
    : newAccountFields(link.platform, values, problems);
  const body = html`<h1>${title}</h1>
    <p>${account ? 'For' : 'To'} <strong>${organization.name}</strong> on the Outreach Campaign Service.</p>
    <p class="sandbox">
      Sandbox: this page stands in for ${signIn}. Nothing is sent to
      ${link.platform === 'email' ? 'a mail server' : 'LinkedIn'}${link.platform === 'email' && !account ? ', and the domain’s SPF, DKIM and DMARC are recorded as passing' : ''}.
    </p>
    ${hasProblems ? html`<p class="problem" role="alert">Please correct the fields marked below.</p>` : null}
    <form method="post" accept-charset="utf-8">
      ${fields}
      <button type="submit">${account ? 'Reconnect account' : 'Connect account'}</button>
    </form>
    <p class="small">This link works once, until ${shownTime(link.expires_at)}.</p>`;
  return pageDocument(title, body);
}

/** The page after connecting, naming the account. */
export function connectedPage(
  view: { organization: OrganizationRecord; account: SenderAccountRecord },
  reconnected: boolean,
): string {
  const { organization, account } = view;
  const title = reconnected ? 'Account reconnected' : 'Account connected';
  const body = html`<h1>${title}</h1>
    <p><strong>${account.label}</strong> is connected as a sender account of <strong>${organization.name}</strong>.</p>
    <dl>${accountDetails(account)}</dl>
    <p class="small">You can close this window. The account is listed by <code>GET /v1/accounts</code>.</p>`;
  return pageDocument(title, body);
}

/** Why a link cannot be used. */
export type LinkProblem = 'unknown' | 'expired' | 'used' | 'deactivated' | 'account_missing';

const newLinkAdvice = 'Ask for a new link: POST /v1/accounts/connect-link creates one.';

/** The status and page for a link that cannot be used. */
export function linkProblemPage(
  problem: LinkProblem,
  link: ConnectLinkRecord | null,
): { status: number; page: string } {
  switch (problem) {
    case 'unknown':
      return problemPage(404, 'Connect link not found', [
        'No connect link has this address. Check that it was copied whole.',
        newLinkAdvice,
      ]);
    case 'expired':
      return problemPage(410, 'Connect link expired', [
        link ? `This link expired at ${shownTime(link.expires_at)}: links work for one hour.` : 'This link expired.',
        newLinkAdvice,
      ]);
    case 'used':
      return problemPage(410, 'Connect link already used', [
        'This link was already used: each link works once.',
        'If the account is not connected, ask for a new link: POST /v1/accounts/connect-link creates one.',
      ]);
    case 'deactivated':
      return problemPage(403, 'Organization deactivated', [
        'The organization this link belongs to is deactivated, so no account can be connected to it.',
      ]);
    case 'account_missing':
      return problemPage(410, 'Account not found', [
        'The account this link reconnects is no longer an account of the organization.',
        'To add it again, ask for a link without account_id.',
      ]);
  }
}

/** A page that says what went wrong, in a few sentences. */
export function problemPage(status: number, title: string, sentences: string[]): { status: number; page: string } {
  const body = html`<h1>${title}</h1>
    ${sentences.map((sentence) => html`<p>${sentence}</p> `)}`;
  return { status, page: pageDocument(title, body) };
}

function newAccountFields(platform: ConnectLinkRecord['platform'], values: FormValues, problems: FieldProblems): Html {
  const field = (name: FormFieldName, label: string, options: FieldOptions) =>
    input(name, label, values, problems, options);
  if (platform === 'email') {
    const email = field('email', 'Email address', { type: 'email', required: true, autocomplete: 'email' });
    const label = field('label', 'Display name', {
      hint: 'Optional; the email address when left empty.',
      autocomplete: 'name',
    });
    return html`${email}${label}`;
  }
  const label = field('label', 'Display name', {
    required: true,
    hint: 'The name on the LinkedIn profile.',
    autocomplete: 'name',
  });
  const username = field('platform_username', 'LinkedIn username', {
    required: true,
    hint: 'From the profile’s address: linkedin.com/in/username.',
    autocomplete: 'username',
  });
  return html`${label}${username}`;
}

interface FieldOptions {
  type?: 'email' | 'text';
  required?: boolean;
  hint?: string;
  autocomplete: string;
}

function input(
  name: FormFieldName,
  label: string,
  values: FormValues,
  problems: FieldProblems,
  options: FieldOptions,
): Html {
  const problem = problems[name];
  const hintId = `${name}-hint`;
  const problemId = `${name}-problem`;
  const describedBy = [options.hint ? hintId : null, problem ? problemId : null].filter(Boolean).join(' ');
  const required = options.required ? html`required` : null;
  const invalid = problem ? html`aria-invalid="true"` : null;
  const described = describedBy ? html`aria-describedby="${describedBy}"` : null;
  return html`<label for="${name}">${label}</label>
    <input
      id="${name}"
      name="${name}"
      type="${options.type ?? 'text'}"
      value="${values[name] ?? ''}"
      maxlength="${fieldLimits[name]}"
      autocomplete="${options.autocomplete}"
      ${required}
      ${invalid}
      ${described}
    />
    ${options.hint ? html`<p class="hint" id="${hintId}">${options.hint}</p>` : null}
    ${problem ? html`<p class="field-problem" id="${problemId}">${problem}</p>` : null}`;
}

function accountDetails(account: SenderAccountRecord): Html {
  return html`<dt>Account</dt>
    <dd>${account.label}</dd>
    ${
      account.email !== null
        ? html`<dt>Email</dt>
            <dd>${account.email}</dd> `
        : null
    }${
      account.platform === 'linkedin' && account.platform_username !== null
        ? html`<dt>Username</dt>
            <dd>${account.platform_username}</dd> `
        : null
    }
    <dt>Account ID</dt>
    <dd><code>${account.id}</code></dd> `;
}

/** `2026-11-06 11:45 UTC`: a time a reader takes in at a glance. */
function shownTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
