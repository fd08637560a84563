/**
 * Secrets kept out of logs and error messages. A client may put a credential
 * where it does not belong — `DELETE /v1/me/keys/<the key's secret>` instead
 * of its id — and the access log and a "no route" message would repeat it.
 *
 * `redactSecrets` replaces what is shaped like a credential:
 *
 * - the service's own tokens (Keys.ts): `psx_s_…` (a session) and `psx_k_…`
 *   (an API key) become `psx_s_[redacted]` / `psx_k_[redacted]`;
 * - any other run of 24 or more base64url characters that mixes upper and
 *   lower case, or letters and digits (a bearer token, an API key of another
 *   service, a hex digest) becomes `[redacted]`. A UUID (a key, user or event
 *   id) is kept: it names a record and grants nothing; so is a long slug
 *   (`oil-and-gas-exploration-companies`) or a number.
 *
 * `redactTokens` replaces only the service's own tokens: the JSON logger
 * applies it to every line, whatever wrote it (a defect's message, a cause).
 *
 * Text with nothing to redact (the common case) is tested once and returned
 * as it is.
 */

const SECRETISH = /psx_([a-z])_[A-Za-z0-9_-]*|[A-Za-z0-9_-]{24,}/giu
const TOKEN = /psx_([a-z])_[A-Za-z0-9_-]*/giu
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu

/** Mixed case, or letters and digits: what a random string is and a word, a slug or a number is not. */
const looksRandom = (run: string) =>
  (/[A-Z]/u.test(run) && /[a-z]/u.test(run)) || (/[0-9]/u.test(run) && /[A-Za-z]/u.test(run))

const redacted = (match: string, kind: string | undefined) =>
  kind !== undefined ? `psx_${kind}_[redacted]` : !UUID.test(match) && looksRandom(match) ? "[redacted]" : match

const replaceWith = (pattern: RegExp) => (text: string): string => {
  pattern.lastIndex = 0
  return pattern.test(text) ? text.replace(pattern, redacted) : text
}

/** `text` (a path, an error message) with anything shaped like a credential replaced (see the module comment). */
export const redactSecrets = replaceWith(SECRETISH)

/** `text` (a whole log line) with the service's own tokens replaced. */
export const redactTokens = replaceWith(TOKEN)
