/**
 * An erased lead's values as URLs carry them. An entry's `path` is kept as it was requested,
 * percent-encoded (`/v1/leads/erase.me%40example.com` for a `getLead` by email), so the value
 * as written is not in it; and in the middle of an encoded segment (`Ada%20Lovelace`) a value
 * is glued to the escape's hex digits, where the erasure's text search (which leaves `Al` in
 * `Also` alone) does not take it out. So the path is scrubbed segment by segment as the
 * server reads it, decoded, and the other strings of an entry (a `Referer`, a URL in a body)
 * are searched for the values' usual encodings too. Escapes are matched in either case
 * (`%2b`, `%2B`): the erasure's search ignores case.
 */

/**
 * `value` as URLs and forms commonly encode it, beside itself: `encodeURIComponent` (`@` is
 * `%40`, `+` is `%2B`), `encodeURI` (`@` and `+` as they are, spaces and accents escaped), a
 * form's encoding (spaces as `+`), and with each `+` read back as a space, as a query string
 * decodes a `+` sent unescaped (`?search=a+b@example.com` is `a b@example.com`).
 */
export function encodedForms(value: string): string[] {
  const forms = new Set<string>();
  const add = (encode: (text: string) => string) => {
    try {
      forms.add(encode(value));
    } catch {
      // A lone surrogate, which no encoding takes: the value itself is searched for.
    }
  };
  add(encodeURIComponent);
  add(encodeURI);
  add((text) => new URLSearchParams([['', text]]).toString().slice(1));
  forms.add(value.replaceAll('+', ' '));
  forms.delete(value);
  return [...forms];
}

/**
 * `text` with its percent-escapes decoded: each run of escapes whole when it is UTF-8, else
 * each ASCII escape alone (`%40` in `a%40b%FF`); everything else as it is. Never throws. `%25`
 * (`%`) stays encoded, so that every `%` of the result is one of `text`'s own: `encodedSegment`
 * gives back the escapes it could not decode (`%FF`) as they were. No UTF-8 sequence holds the
 * byte 0x25, so no run is cut in the middle of a character.
 */
export function decodedLeniently(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/(?:%(?!25)[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
    }
  });
}

/**
 * `text` (a path segment, a path parameter) with `scrub` applied as requested (for the values'
 * encoded forms) and decoded (as the server reads it): `decoded` is the scrubbed decoded text
 * when that changed it, else null (`requested` then stands for both).
 */
export function scrubbedBothWays(
  text: string,
  scrub: (text: string) => string,
): { requested: string; decoded: string | null } {
  const requested = scrub(text);
  const decoded = decodedLeniently(requested);
  const scrubbed = scrub(decoded);
  return { requested, decoded: scrubbed === decoded ? null : scrubbed };
}

/**
 * `path` with `scrub` applied to each segment both ways (`scrubbedBothWays`): a segment that
 * changed decoded is encoded again (what a path segment may hold as it is, `@`, `+`,
 * `[erased]`, left so), the others stay as they were requested.
 */
export function scrubbedPath(path: string, scrub: (text: string) => string): string {
  return path
    .split('/')
    .map((segment) => {
      const { requested, decoded } = scrubbedBothWays(segment, scrub);
      return decoded === null ? requested : encodedSegment(decoded);
    })
    .join('/');
}

/**
 * A decoded segment encoded again as `encodeURIComponent` does, except for what a path segment
 * holds as it is, and `%`: every `%` left by `decodedLeniently` is an escape as it was requested.
 */
function encodedSegment(text: string): string {
  // A lone surrogate (which encodeURIComponent refuses) as the replacement character, as a URL writes it.
  const wellFormed = text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return wellFormed
    .split('%')
    .map((part) =>
      encodeURIComponent(part).replace(/%(?:24|26|2B|2C|3A|3B|3D|40|5B|5D)/g, (escape) => decodeURIComponent(escape)),
    )
    .join('%');
}
