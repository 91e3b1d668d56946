/** What the logging hook receives. URLs are always redacted; headers and bodies are never included. */
export interface LogEntry {
  event: "request" | "response" | "retry" | "error";
  method: string;
  /** The request URL with the API key redacted. */
  url: string;
  /** 0 for the first attempt. */
  attempt: number;
  status?: number;
  durationMs?: number;
  /** For `retry`: how long the client waits before the next attempt. */
  delayMs?: number;
  /** For `retry` and `error`: why. */
  reason?: string;
  /** A one-line summary, safe to print. */
  message: string;
}
