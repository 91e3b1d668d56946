/**
 * A message of a conversation as a chat bubble that explains itself: who wrote it (the contact, a
 * simulation of them, the bot, a person, a template, your system), each a colour and a label;
 * where an outgoing one went (the custom channel's webhook and its delivery, or a built-in
 * channel, which has no webhook); and for a received one, what the bot made of it.
 */
import type { Delivery } from "@intake/server/admin-client";
import type { Message, Schemas } from "../api/admin.js";
import { BUILT_IN_CHANNELS, customChannelName, duration, isBuiltIn, Time } from "../ui/text.js";
import { BotRunLine } from "./bot.js";
import { BotTurn } from "./bot-turn.js";

/** Who wrote a message, by its source. */
export const AUTHOR: Record<Message["source"], string> = {
  api_receive: "From the contact",
  simulated: "From the contact (simulated)",
  api_send: "Your system, through the API",
  bot: "Bot",
  human: "Human",
  opening: "Opening message (template)",
  follow_up: "Follow-up (template)",
};

/** Where a simulated message came from; one stored before that was kept says only that it was simulated. */
const SIMULATED_VIA: Record<NonNullable<Message["simulatedVia"]> | "unknown", string> = {
  dashboard: "simulated in the dashboard",
  demo: "simulated by the demo at start",
  admin_api: "simulated through the admin API",
  unknown: "simulated",
};

/** A delivery's state as a sentence's end: "delivered", "failed", "retrying (2 attempts)". */
function deliveryState(delivery: Delivery): string {
  const n = delivery.attempts.length;
  const count = `${n} attempt${n === 1 ? "" : "s"}`;
  if (delivery.state === "pending") return n ? `retrying (${count})` : "sending";
  return n > 1 ? `${delivery.state} (${count})` : delivery.state;
}

/** Where an outgoing message went. */
function Destination({ message, deliveries }: { message: Message; deliveries: Delivery[] }) {
  if (message.source === "api_send") return <p class="where">Sent by your system through the API</p>;
  if (isBuiltIn(message.channel))
    return <p class="where">{BUILT_IN_CHANNELS[message.channel]} (simulated: no webhook for built-in channels)</p>;
  const delivery = deliveries[deliveries.length - 1];
  if (!delivery) return <p class="where">Custom channel webhook: {message.status === "not_sent" ? "not sent" : message.status}</p>;
  return (
    <p class="where">
      Custom channel webhook → <span class="mono">{delivery.url ?? "no URL"}</span>:{" "}
      <span class={`badge state-${delivery.state}`}>{deliveryState(delivery)}</span>
    </p>
  );
}

/** Where an incoming message came from. */
function Origin({ message }: { message: Message }) {
  const channel = isBuiltIn(message.channel) ? BUILT_IN_CHANNELS[message.channel] : customChannelName(message.channel, message.fromId);
  return (
    <p class="where">
      Received on {channel}
      {message.source === "simulated" ? <span class="badge simulated">{SIMULATED_VIA[message.simulatedVia ?? "unknown"]}</span> : null}
    </p>
  );
}

/** A file the message carries: a link for a public URL, a note for an embedded one (never loaded here). */
function Media({ url, type }: { url: string; type: string | null }) {
  const kind = type ?? "unknown type";
  if (url.startsWith("data:"))
    return (
      <p class="media">
        Media ({kind}): an embedded file of {url.length.toLocaleString("en")} characters
      </p>
    );
  return (
    <p class="media">
      Media ({kind}):{" "}
      {/^https?:\/\//.test(url) ? (
        <a href={url} rel="noreferrer noopener" target="_blank">
          {url}
        </a>
      ) : (
        <span class="mono">{url}</span>
      )}
    </p>
  );
}

const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

interface ChatMessageProps {
  message: Message;
  deliveries: Delivery[];
  target?: Message | undefined;
  /** The bot on this server: says who is answering a message that waits for it. */
  bot?: Schemas["BotInfo"] | undefined;
  /** The message changed by an action taken on it (the bot asked again). */
  onChange?: () => void;
}

export function ChatMessage({ message, deliveries, target, bot, onChange = () => {} }: ChatMessageProps) {
  const attempts = deliveries.flatMap((d) => d.attempts);
  const reaction = message.messageType === "reaction";
  return (
    <li class={`bubble ${message.direction} source-${message.source}`} data-message-id={message.id}>
      <div class="bubble-head">
        <span class="kind">{AUTHOR[message.source]}</span>
        <Time at={message.createdAt} />
      </div>
      {reaction ? (
        <p class="body">
          Reacted {message.body} to {target ? `“${excerpt(target.body)}”` : (message.reactionTo ?? "a message")}
        </p>
      ) : (
        <p class="body">{message.body}</p>
      )}
      {message.mediaUrl ? <Media url={message.mediaUrl} type={message.mediaContentType} /> : null}
      {message.direction === "outbound" ? <Destination message={message} deliveries={deliveries} /> : <Origin message={message} />}
      <BotRunLine message={message} />
      <BotTurn message={message} bot={bot} onRetried={onChange} />
      <div class="bubble-foot">
        <span class={`status status-${message.status}`}>{message.status}</span>
        {message.error ? <span class="error-text">{message.error}</span> : null}
      </div>
      {attempts.length ? (
        <details class="attempts">
          <summary>
            {attempts.length} delivery attempt{attempts.length > 1 ? "s" : ""} ({deliveries.map((d) => d.state).join(", ")})
          </summary>
          <ul>
            {attempts.map((a) => (
              <li key={a.number}>
                #{a.number} <Time at={a.startedAt} /> — {a.status ?? "no answer"} in {duration(a.durationMs)}
                {a.error ? ` — ${a.error}` : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}
