/** A contact's conversation as a chat, each message with its status, error and delivery attempts; a human reply; pause or resume the bot. */
import type { Delivery } from "@intake/server/admin-client";
import { admin, type Message, type Schemas } from "../api/admin.js";
import { about, useReloadOn } from "../api/live.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, TextAreaField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { contactName, Link, Time } from "../ui/text.js";
import { nameOf, useCampaigns, useLists, type PageProps } from "./shared.js";

const SOURCE: Record<Message["source"], string> = {
  api_receive: "Inbound",
  api_send: "Sent through the API",
  bot: "Bot",
  human: "Human",
  opening: "Opening message",
  follow_up: "Follow-up",
};

/** The contact and its conversation's webhooks, by message. */
async function loadConversation(id: string) {
  const [found, deliveries] = await Promise.all([admin().contact(id), admin().deliveries({ contactId: id })]);
  const byMessage = new Map<string, Delivery[]>();
  for (const delivery of deliveries) if (delivery.messageId) byMessage.set(delivery.messageId, [...(byMessage.get(delivery.messageId) ?? []), delivery]);
  return { ...found, deliveries: byMessage };
}

export function Conversation({ id, accountId }: { id: string } & PageProps) {
  const detail = useLoad(() => loadConversation(id), [id]);
  const lists = useLists(accountId);
  const campaigns = useCampaigns(accountId);
  useReloadOn(accountId, (event) => about(id)(event) || event.type === "delivery.attempted", detail.reload);
  const pause = useAction();
  const reply = useAction();

  return (
    <Loading loaded={detail}>
      {({ contact, messages, alerts, listIds, deliveries }) => (
        <Page
          title={contactName(contact)}
          actions={
            <button type="button" disabled={pause.busy} onClick={() => pause.run(() => admin().setBotPaused(id, !contact.botPaused).then(detail.reload))}>
              {contact.botPaused ? "Resume the bot" : "Pause the bot"}
            </button>
          }
        >
          <ErrorNote error={pause.error} />
          <Facts contact={contact} listIds={listIds} lists={lists.data} campaigns={campaigns.data} />
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
          <ActionForm class="reply" action={reply} submit="Send reply" onSubmit={(form) => admin().reply(id, formValue(form, "body"))} onDone={(_, form) => (form.reset(), detail.reload())}>
            <TextAreaField label="Reply as a person" name="body" rows={3} required maxLength={4096} />
          </ActionForm>
        </Page>
      )}
    </Loading>
  );
}

type Named = { id: string; name: string }[] | undefined;

function Facts({ contact, listIds, lists, campaigns }: { contact: Schemas["Contact"]; listIds: string[]; lists: Named; campaigns: Named }) {
  return (
    <dl class="facts">
      <dt>Phone</dt>
      <dd>{contact.phone ?? "—"}</dd>
      <dt>Email</dt>
      <dd>{contact.email ?? "—"}</dd>
      <dt>Bot</dt>
      <dd>{contact.botPaused ? "paused (a person answers)" : "active"}</dd>
      <dt>Campaign</dt>
      <dd>{contact.campaignId ? <Link to={`/campaigns/${contact.campaignId}`}>{nameOf(campaigns, contact.campaignId)}</Link> : "—"}</dd>
      <dt>Lists</dt>
      <dd>
        {listIds.length
          ? listIds.map((listId, i) => (
              <span key={listId}>
                {i ? ", " : ""}
                <Link to={`/lists/${listId}`}>{nameOf(lists, listId)}</Link>
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
