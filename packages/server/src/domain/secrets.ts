/**
 * Every secret the server is configured with, for words from outside to be redacted of
 * (shared/redact-secrets.ts): the accounts' API keys and webhook secrets, as the store holds them
 * now (found through its index of their last characters, kept as they change), and the few known
 * at start (the admin token, the bot's own, such as a model key).
 */
import { fixedSecrets, joinSecrets, NONE, redactSecrets, type Secrets } from "../shared/redact-secrets.js";
import type { StoreReader } from "../store/store.js";

export function configuredSecrets(store: StoreReader, fixed: Iterable<string | null | undefined>): Secrets {
  const accounts: Secrets = {
    endingWith(tail) {
      const keys = store.account.group("apiKeyTail", tail);
      const hooks = store.account.group("webhookSecretTail", tail);
      if (keys.length === 0 && hooks.length === 0) return NONE;
      return [...keys.map((account) => account.apiKey), ...hooks.map((account) => account.webhookSecret)];
    },
  };
  return joinSecrets(fixedSecrets(fixed), accounts);
}

/** Redacts words from outside of every configured secret. */
export type Redact = (text: string) => string;

export function redactorOf(secrets: Secrets): Redact {
  return (text) => redactSecrets(text, secrets);
}
