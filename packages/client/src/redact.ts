/**
 * The API key must never reach a log line or an error message, including the query form where it
 * is part of the URL. Everything the client reports passes through here.
 */
export const REDACTED = "[REDACTED]";

export function redactUrl(url: URL | string): string {
  const copy = new URL(url);
  if (copy.searchParams.has("apiKey")) copy.searchParams.set("apiKey", REDACTED);
  return copy.toString().replace(encodeURIComponent(REDACTED), REDACTED);
}

/** Removes every occurrence of the key from free text (a message built by someone else). */
export function redactText(text: string, apiKey: string): string {
  return apiKey ? text.split(apiKey).join(REDACTED) : text;
}
