/** Places the API key where the chosen auth form puts it, and nowhere else. */
import type { AuthForm } from "@intake/spec";

/**
 * The URL to send, with the key in it for the query form; `headers` gets it for the other forms,
 * replacing any header of the same name.
 */
export function placeKey(form: AuthForm, apiKey: string, url: string, headers: Headers): string {
  switch (form) {
    case "query":
      return withQueryKey(url, apiKey);
    case "header":
      headers.set("x-api-key", apiKey);
      return url;
    case "bearer":
      headers.set("authorization", `Bearer ${apiKey}`);
      return url;
  }
}

/**
 * `apiKey` set in the query, replacing one already there. Appended as text when no parameter is
 * named apiKey (the usual case), so the rest of the query goes as openapi-fetch or the caller wrote
 * it; else URLSearchParams replaces it (and re-encodes the query).
 */
function withQueryKey(url: string, apiKey: string): string {
  const query = url.indexOf("?");
  if (query === -1) return `${url}?apiKey=${encodeURIComponent(apiKey)}`;
  if (
    !url
      .slice(query + 1)
      .split("&")
      .some(isApiKeyParameter)
  )
    return `${url}&apiKey=${encodeURIComponent(apiKey)}`;
  const parsed = new URL(url);
  parsed.searchParams.set("apiKey", apiKey);
  return parsed.href;
}

function isApiKeyParameter(pair: string): boolean {
  const name = pair.split("=", 1)[0]!;
  // Only an encoded name (% or +) can decode to apiKey without being it.
  if (!/[%+]/.test(name)) return name === "apiKey";
  try {
    return decodeURIComponent(name.replace(/\+/g, " ")) === "apiKey";
  } catch {
    return false;
  }
}
