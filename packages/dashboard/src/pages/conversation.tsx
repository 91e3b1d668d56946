/**
 * A contact's conversation as a chat, each message saying who wrote it and where it went; a human
 * reply; a simulated message from the contact; the contact added to a list (the funnel's trigger);
 * pause or resume the bot. It follows the event stream: whatever happens to the contact shows.
 */
import type { AdminEvent, Delivery } from "@intake/server/admin-client";
import { admin, type Schemas } from "../api/admin.js";
import { about, useReloadOn } from "../api/live.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, TextAreaField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { contactName, customChannelName, Link, Time } from "../ui/text.js";
import { AddToList } from "./add-to-list.js";
import { activeBot, useActiveBot } from "./bot.js";
import { ChatMessage } from "./chat-message.js";
import { DeleteRecord, TAKES } from "./delete-record.js";
import { CAMPAIGN_CHANGE, LIST_CHANGE, nameOf, useCampaigns, useLists, type PageProps } from "./shared.js";
import { Simulate } from "./simulate.js";

/** The contact and its conversation's webhooks, by message. */
async function loadConversation(id: string) {
  const [found, deliveries] = await Promise.all([admin().contact(id), admin().deliveries({ contactId: id })]);
  const byMessage = new Map<string, Delivery[]>();
  for (const delivery of deliveries)
    if (delivery.messageId) byMessage.set(delivery.messageId, [...(byMessage.get(delivery.messageId) ?? []), delivery]);
  return { ...found, deliveries: byMessage };
}

export function Conversation({ id, accountId }: { id: string } & PageProps) {
  const detail = useLoad(() => loadConversation(id), [id]);
  const lists = useLists(accountId);
  const campaigns = useCampaigns(accountId);
  const bot = useActiveBot();
  // The contact's own events, and the webhooks of its messages (a delivery's events name the message).
  const ofThisContact = (event: AdminEvent) =>
    about(id)(event) ||
    (event.type.startsWith("delivery.") && "messageId" in event && !!detail.data?.messages.some((m) => m.id === event.messageId));
  useReloadOn(accountId, ofThisContact, detail.reload);
  useReloadOn(accountId, LIST_CHANGE, lists.reload);
  // A campaign's state and settings decide its follow-ups.
  useReloadOn(accountId, CAMPAIGN_CHANGE, campaigns.reload, detail.reload);
  const pause = useAction();
  const reply = useAction();

  return (
    <Loading loaded={detail}>
      {({ contact, messages, alerts, listIds, deliveries, followUps }) => (
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
          <Facts contact={contact} listIds={listIds} lists={lists.data} campaigns={campaigns.data} bot={bot.data} followUps={followUps} />
          {alerts.length ? (
            <p class="note" role="status">
              {alerts.length} hand-off alert{alerts.length > 1 ? "s" : ""}: {alerts[alerts.length - 1]!.reason}
            </p>
          ) : null}
          <ol class="chat" aria-label="Conversation">
            {messages.map((message) => (
              <ChatMessage
                key={message.id}
                message={message}
                deliveries={deliveries.get(message.id) ?? []}
                target={
                  message.reactionTo ? messages.find((m) => m.messageSid === message.reactionTo || m.id === message.reactionTo) : undefined
                }
                bot={bot.data}
                onChange={detail.reload}
              />
            ))}
          </ol>
          {messages.length === 0 ? <p class="muted">No messages yet.</p> : null}
          <ActionForm
            class="reply"
            action={reply}
            submit="Send reply"
            onSubmit={(form) => admin().reply(id, formValue(form, "body"))}
            onDone={(_, form) => (form.reset(), detail.reload())}
          >
            <TextAreaField label="Reply as a person" name="body" rows={3} required maxLength={4096} />
          </ActionForm>
          <div class="columns">
            <Simulate contact={contact} messages={messages} onDone={detail.reload} />
            <AddToList
              contactId={id}
              campaignId={contact.campaignId}
              listIds={listIds}
              lists={lists.data}
              campaigns={campaigns.data}
              onDone={detail.reload}
            />
          </div>
          <DeleteRecord
            noun="contact"
            name={contactName(contact)}
            takes={TAKES.contact}
            remove={() => admin().deleteContact(id)}
            back="/contacts"
          />
        </Page>
      )}
    </Loading>
  );
}

type Named = { id: string; name: string }[] | undefined;

interface FactsProps {
  contact: Schemas["Contact"];
  listIds: string[];
  lists: Named;
  campaigns: Named;
  bot: Schemas["BotInfo"] | undefined;
  followUps: Schemas["FollowUpStatus"];
}

/** The next follow-up due, and why it will not go; or why none will. */
function FollowUps({ followUps: { next, stopped }, campaigns }: { followUps: Schemas["FollowUpStatus"]; campaigns: Named }) {
  if (!next) return <>{stopped?.message ?? "—"}</>;
  return (
    <>
      Follow-up {next.number} of {next.of} ({nameOf(campaigns, next.campaignId)}) due <Time at={next.at} />
      {stopped ? <span class="error-text"> — {stopped.message}</span> : null}
    </>
  );
}

function Facts({ contact, listIds, lists, campaigns, bot, followUps }: FactsProps) {
  return (
    <dl class="facts">
      <dt>Phone</dt>
      <dd>{contact.phone ?? "—"}</dd>
      <dt>Email</dt>
      <dd>{contact.email ?? "—"}</dd>
      <dt>Bot</dt>
      <dd>
        {contact.botPaused ? "paused (a person answers)" : "active"}
        {bot ? `: ${activeBot(bot)}` : ""}
      </dd>
      <dt>Campaign</dt>
      <dd>{contact.campaignId ? <Link to={`/campaigns/${contact.campaignId}`}>{nameOf(campaigns, contact.campaignId)}</Link> : "—"}</dd>
      <dt>Follow-ups</dt>
      <dd>
        <FollowUps followUps={followUps} campaigns={campaigns} />
      </dd>
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
          <dt>Channel</dt>
          <dd>{customChannelName(contact.customChannel, contact.fromId)}</dd>
        </>
      ) : null}
    </dl>
  );
}
