/**
 * The bot's turn on a received message while it is not over: "The model is answering…" while the
 * message waits for its answer, and "Try the bot again" once it failed (POST
 * /messages/{id}/retry-bot), which puts it back to waiting.
 */
import { admin, type Message, type Schemas } from "../api/admin.js";
import { useAction } from "../ui/load.js";
import { ErrorNote } from "../ui/page.js";
import { botFailed } from "./bot.js";

/** Waiting for the bot: a received text message with no outcome yet (a reaction is never answered). */
const waiting = (message: Message) => message.direction === "inbound" && message.messageType === "text" && message.botOutcome === null;

export function BotTurn({ message, bot, onRetried }: { message: Message; bot: Schemas["BotInfo"] | undefined; onRetried: () => void }) {
  const retry = useAction();
  if (waiting(message)) {
    return (
      <p class="bot-turn pending" role="status">
        {bot?.name === "model" ? "The model is answering…" : "The bot is answering…"}
      </p>
    );
  }
  if (!botFailed(message.botOutcome)) return null;
  return (
    <div class="bot-turn retry">
      <button type="button" disabled={retry.busy} onClick={() => retry.run(() => admin().retryBot(message.id).then(onRetried))}>
        Try the bot again
      </button>
      <ErrorNote error={retry.error} />
    </div>
  );
}
