/**
 * The hosted page of a connect link (`POST /v1/accounts/connect-link` answers its URL),
 * `/connect/{token}`, outside `/v1`: no API key (the unguessable token is the credential), no
 * rate-limit budget, no CORS. `GET` (and `HEAD`) shows what will be connected and a form;
 * `POST` (the form) uses the link and connects the account, then sends the browser to
 * `redirect_url` (303, with `account_id` added) or shows a page naming the account. Any
 * other method answers 405. Every answer is an HTML page with the headers of
 * page-headers.ts; bad input gets a page that says what to do, never a 500.
 *
 * The reference server routes it in its application (`http/router.ts`), so the standalone
 * mock, whose listener hands every request to the same application, serves it too.
 */
import { connectLinkState, isConnectTokenForm } from '../domain/connect-links.ts';
import { connectPrefix } from '../http/logged-path.ts';
import { childLogger, type Logger } from '../http/logger.ts';
import type { OutsideAnswer } from '../http/outside-pipeline.ts';
import type { AppServices } from '../services.ts';
import { checkConnectForm, type FormValues } from './connect-form.ts';
import type { NewAccountFields } from '../domain/connected-account.ts';
import {
  connectedPage,
  formPage,
  type LinkProblem,
  linkProblemPage,
  type LinkView,
  problemPage,
} from './connect-pages.ts';
import { readFormBody } from './form-body.ts';
import { pageHeaders } from './page-headers.ts';
import { redirectLocation, redirectOrigin } from './redirect-target.ts';
import { useConnectLink } from './use-connect-link.ts';

/** The route, as the router names it. */
export const connectRoute = '/connect/:token';
export const connectMethods = ['GET', 'HEAD', 'POST'] as const;

export type ConnectServices = Pick<AppServices, 'store' | 'clock' | 'logger'>;

export function connectPage(services: ConnectServices): OutsideAnswer {
  return async (request, requestId) => {
    const log = childLogger(services.logger, { request_id: requestId });
    try {
      return await answer(services, log, request);
    } catch (error) {
      // The store failed (or a bug): whatever the transaction wrote was rolled back, so the link is still usable.
      log.log({
        level: 'error',
        message: 'connect page failed',
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      return page(
        problemPage(500, 'Something went wrong', [
          'The account could not be connected just now; the link was not used. Reload the page to try again.',
          `If it keeps happening, quote request ID ${requestId}.`,
        ]),
      );
    }
  };
}

async function answer(services: ConnectServices, log: Logger, request: Request): Promise<Response> {
  if (!(connectMethods as readonly string[]).includes(request.method)) {
    const refused = page(
      problemPage(405, 'Method not allowed', [
        `A connect link is opened with GET and its form sent with POST, not ${request.method}.`,
      ]),
    );
    refused.headers.set('Allow', connectMethods.join(', '));
    return refused;
  }
  const token = new URL(request.url).pathname.slice(connectPrefix.length);
  const now = services.clock.now();
  const found = isConnectTokenForm(token)
    ? await lookUp(services, token, now)
    : { problem: 'unknown' as const, link: null };
  if ('finished' in found) return finishedAnswer(found.finished);
  if ('problem' in found) return page(linkProblemPage(found.problem, found.link));
  const formTarget = redirectOrigin(found.link.redirect_url);
  if (request.method !== 'POST') return page({ status: 200, page: formPage(found) }, formTarget);

  const body = await readFormBody(request);
  if ('refused' in body) return page(bodyProblem(body.refused));
  const checked = checkConnectForm(found.link, body.form);
  if (!checked.ok) return page({ status: 400, page: formPage(found, checked.values, checked.problems) }, formTarget);

  // The time of the claim, after the body came: a slow body must not use a link that expired meanwhile.
  const used = await useConnectLink(services.store, token, checked.fields, services.clock.now());
  if (used.outcome === 'used') {
    // Another submission came first (a double click, a second tab): answered as that one was.
    const again = await lookUp(services, token, services.clock.now());
    if ('finished' in again) return finishedAnswer(again.finished);
  }
  if (used.outcome === 'already_connected') {
    const field = found.link.platform === 'email' ? 'email' : 'platform_username';
    const problem = `${found.link.platform === 'email' ? 'This mailbox' : 'This LinkedIn account'} is already a sender account of ${found.organization.name} (${used.account.id}). To connect it again, create a link with account_id ${used.account.id}.`;
    return page(
      { status: 409, page: formPage(found, submittedValues(checked.fields), { [field]: problem }) },
      formTarget,
    );
  }
  if (used.outcome !== 'connected') return page(linkProblemPage(used.outcome, found.link));
  const { account } = used;
  const reconnected = used.link.account_id !== null;
  log.log({
    level: 'info',
    message: reconnected ? 'account reconnected' : 'account connected',
    organization_id: account.organization_id,
    account_id: account.id,
    platform: account.platform,
  });
  return finishedAnswer({ link: used.link, organization: found.organization, account }, reconnected);
}

/** A link's work done: to `redirect_url` with the account (303), or the page naming it. */
function finishedAnswer(done: FinishedLink, reconnected = false): Response {
  const location = redirectLocation(done.link.redirect_url, done.account.id);
  if (location !== null) {
    // No body, so no Content-Type; the rest stays: the answer to a URL holding the token.
    const headers = pageHeaders();
    delete headers['Content-Type'];
    return new Response(null, { status: 303, headers: { ...headers, Location: location } });
  }
  return page({ status: 200, page: connectedPage(done, reconnected) });
}

/** A used link, within its hour, and the account it connected. */
interface FinishedLink {
  link: LinkView['link'];
  organization: LinkView['organization'];
  account: NonNullable<LinkView['account']>;
}

/**
 * The link, its organization and the account it reconnects; or, for a link used within its
 * hour, what it connected (`finished`: a reload that sends the form again, or a second
 * submission, gets the first one's answer, so that `redirect_url` still learns the account);
 * or why the link cannot be used at `now`.
 */
async function lookUp(
  services: ConnectServices,
  token: string,
  now: Date,
): Promise<LinkView | { finished: FinishedLink } | { problem: LinkProblem; link: LinkView['link'] | null }> {
  const { store } = services;
  const link = await store.accounts.getConnectLink(token);
  if (!link) return { problem: 'unknown', link: null };
  const state = connectLinkState(link, now);
  const withinHour = new Date(link.expires_at).getTime() > now.getTime();
  if (state === 'used' && withinHour && link.account_id !== null) {
    const [organization, account] = await Promise.all([
      store.organizations.get(link.organization_id),
      store.accounts.get(link.organization_id, link.account_id),
    ]);
    if (organization?.is_active && account) return { finished: { link, organization, account } };
  }
  if (state !== 'usable') return { problem: state, link };
  const organization = await store.organizations.get(link.organization_id);
  if (!organization?.is_active) return { problem: 'deactivated', link };
  if (link.account_id === null) return { link, organization, account: null };
  // Only the link's organization's account: its organization decides everything.
  const account = await store.accounts.get(link.organization_id, link.account_id);
  if (!account || account.platform !== link.platform) return { problem: 'account_missing', link };
  return { link, organization, account };
}

function bodyProblem(refused: 'too_large' | 'media_type' | 'coded' | 'cut_off'): { status: number; page: string } {
  switch (refused) {
    case 'too_large':
      return problemPage(413, 'Form too large', ['The form sent was larger than 8 KB. Go back and send it again.']);
    case 'media_type':
      return problemPage(415, 'Form not readable', [
        'The form must be sent as application/x-www-form-urlencoded, as a browser sends the page’s form.',
      ]);
    case 'coded':
      return problemPage(415, 'Form not readable', [
        'The form must be sent as it is, without a Content-Encoding, as a browser sends the page’s form.',
      ]);
    case 'cut_off':
      return problemPage(400, 'Form cut off', ['The form arrived incomplete. Go back and send it again.']);
  }
}

function page(shown: { status: number; page: string }, formTarget: string | null = null): Response {
  return new Response(shown.page, { status: shown.status, headers: pageHeaders(formTarget) });
}

/** What was typed, to show in the form again: the fields as checked. */
function submittedValues(fields: NewAccountFields | null): FormValues {
  if (fields === null) return {};
  return fields.platform === 'email'
    ? { email: fields.email, label: fields.label }
    : { label: fields.label, platform_username: fields.platform_username };
}
