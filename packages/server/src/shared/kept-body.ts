/**
 * What the server keeps of a request's or an answer's body once it is answered (the
 * `request.answered` event, and so the journal and whatever else hears it): the text itself up to
 * 65,536 characters, else a note of how long it was in its place. A recent request, refused or
 * not, then holds a bounded size of body however large the body was (a 32 MiB one is accepted).
 */

/** Bodies longer than this are replaced by the note. */
export const MAX_KEPT_BODY_CHARS = 64 * 1024;

/**
 * The body's text, or `{"truncated":true,"characters":n}` (itself JSON, as every body kept is)
 * for one over the bound. A new short string: nothing of the long text is kept through it.
 */
export function keptBody(text: string | null): string | null {
  return text !== null && text.length > MAX_KEPT_BODY_CHARS ? JSON.stringify({ truncated: true, characters: text.length }) : text;
}

/**
 * A text kept to its first MAX_KEPT_BODY_CHARS characters, then a note of how long it was (what
 * the webhook inbox keeps of a body: its start is what a person reads).
 */
export function keptHead(text: string): string {
  return text.length > MAX_KEPT_BODY_CHARS
    ? `${text.slice(0, MAX_KEPT_BODY_CHARS)}\n[... ${text.length - MAX_KEPT_BODY_CHARS} more characters not kept; ${text.length} in all]`
    : text;
}
