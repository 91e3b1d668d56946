/** A contact's conversation as a chat, each message with its status, error and delivery attempts; a human reply; pause or resume the bot. */
import type { PageProps } from "./shared.js";
import type { Delivery } from "@intake/server/admin-client";
import { admin, type Message } from "../api/admin.js";
import { about, useLive } from "../api/live.js";
import { Field } from "../ui/form.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { contactName, Link, Time } from "../ui/text.js";

const SOURCE: Record<Message["source"], string> = {
  api_receive: "Inbound",
  api_send: "Sent through the API",
  bot: "Bot",
  human: "Human",
  opening: "Opening message",
  follow_up: "Follow-up",
};

export function Conversation({ id, accountId }: { id: string } & PageProps) {
  const detail = useLoad(async () => {
    // The contact and its conversation's webhooks at once.
    const [found, deliveries] = await Promise.all([
      admin().contact(id),
      admin().deliveries({ contactId: id }),
    ]);
    const byMessage = new Map<string, Delivery[]>();
    for (const delivery of deliveries) if (delivery.messageId) byMessage.set(delivery.messageId, [...(byMessage.get(delivery.messageId) ?? []), delivery]);
    return { ...found, deliveries: byMessage };
  }, [id]);
  const lists = useLoad(() => admin().lists(accountId), [accountId]);
  const campaigns = useLoad(() => admin().campaigns(accountId), [accountId]);
  useLive(accountId, (events) => {
    if (events.some((e) => about(e, id) || e.type === "delivery.attempted" || e.type === "reconnect")) detail.reload();
  });
  const pause = useAction();
  const reply = useAction();

  return (
    <Loading loaded={detail}>
      {({ contact, messages, alerts, listIds, deliveries }) => (
        <Page
          title={contactName(contact)}
          actions={
            <button
              type="button"
              disabled={pause.busy}
              onClick={() => pause.run(() => admin().setBotPaused(id, !contact.botPaused).then(detail.reload))}
            >
              {contact.botPaused ? "Resume the bot" : "Pause the bot"}
            </button>
          }
        >
          <ErrorNote error={pause.error} />
          <dl class="facts">
            <dt>Phone</dt>
            <dd>{contact.phone ?? "—"}</dd>
            <dt>Email</dt>
            <dd>{contact.email ?? "—"}</dd>
            <dt>Bot</dt>
            <dd>{contact.botPaused ? "paused (a person answers)" : "active"}</dd>
            <dt>Campaign</dt>
            <dd>{contact.campaignId ? <Link to={`/campaigns/${contact.campaignId}`}>{campaigns.data?.find((c) => c.id === contact.campaignId)?.name ?? contact.campaignId}</Link> : "—"}</dd>
            <dt>Lists</dt>
            <dd>
              {listIds.length
                ? listIds.map((listId, i) => (
                    <span key={listId}>
                      {i ? ", " : ""}
                      <Link to={`/lists/${listId}`}>{lists.data?.find((l) => l.id === listId)?.name ?? listId}</Link>
                    </span>
                  ))
                : "—"}
            </dd>
            {contact.fromId ? (
              <>
                <dt>Custom channel</dt>
                <dd>
                  {contact.customChannel ?? "—"} ({contact.fromId})
                </dd>
              </>
            ) : null}
          </dl>
          {alerts.length ? (
            <p class="note" role="status">
              {alerts.length} hand-off alert{alerts.length > 1 ? "s" : ""}: {alerts[alerts.length - 1]!.reason}
            </p>
          ) : null}
          <ol class="chat" aria-label="Conversation">
            {messages.map((message) => (
              <ChatMessage key={message.id} message={message} deliveries={deliveries.get(message.id) ?? []} />
            ))}
          </ol>
          {messages.length === 0 ? <p class="muted">No messages yet.</p> : null}
          <form
            class="reply"
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const body = (form.elements.namedItem("body") as HTMLTextAreaElement).value;
              if (await reply.run(() => admin().reply(id, body))) {
                form.reset();
                detail.reload();
              }
            }}
          >
            <Field label="Reply as a person">{(fieldId) => <textarea id={fieldId} name="body" rows={3} required maxLength={4096} />}</Field>
            <ErrorNote error={reply.error} />
            <button type="submit" disabled={reply.busy}>
              Send reply
            </button>
          </form>
        </Page>
      )}
    </Loading>
  );
}

function ChatMessage({ message, deliveries }: { message: Message; deliveries: Delivery[] }) {
  const attempts = deliveries.flatMap((d) => d.attempts);
  return (
    <li class={`bubble ${message.direction} source-${message.source}`} data-message-id={message.id}>
      <div class="bubble-head">
        <span class="kind">{SOURCE[message.source]}</span>
        <Time at={message.createdAt} />
      </div>
      <p class="body">{message.body}</p>
      <div class="bubble-foot">
        <span class={`status status-${message.status}`}>{message.status}</span>
        {message.botOutcome ? <span class="muted">bot: {message.botOutcome}</span> : null}
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
                #{a.number} <Time at={a.startedAt} /> — {a.status ?? "no answer"} in {Math.round(a.durationMs)} ms{a.error ? ` — ${a.error}` : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}
