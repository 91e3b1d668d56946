/** Places the API key where the chosen auth form puts it, and nowhere else. */
import type { AuthForm } from "@intake/spec";

export function placeKey(form: AuthForm, apiKey: string, url: URL, headers: Headers): void {
  switch (form) {
    case "query":
      url.searchParams.set("apiKey", apiKey);
      return;
    case "header":
      headers.set("x-api-key", apiKey);
      return;
    case "bearer":
      headers.set("authorization", `Bearer ${apiKey}`);
      return;
  }
}
