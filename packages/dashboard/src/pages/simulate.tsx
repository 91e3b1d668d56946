/**
 * "The lead answers": a message from the contact, as if they had sent it (the admin API's
 * simulateInbound), on their custom channel (processed as POST /v1/incoming_custom_channel_message
 * would) or a built-in one: text, a reaction to a message, or a file by URL with its type.
 */
import { useState } from "preact/hooks";
import { admin, type Message, type Schemas } from "../api/admin.js";
import { ActionForm } from "../ui/action-form.js";
import { Field, formValue, InputField, SelectField, TextAreaField } from "../ui/fields.js";
import { useAction } from "../ui/load.js";
import { BUILT_IN_CHANNELS, customChannelName } from "../ui/text.js";
import { AUTHOR } from "./chat-message.js";

type Kind = "text" | "reaction" | "media";
type Input = Schemas["InboundInput"];

const KINDS: [Kind, string][] = [
  ["text", "Text"],
  ["reaction", "A reaction to a message"],
  ["media", "A file by URL, with a caption"],
];

/** Common types for a file, offered as the content type is typed. */
const MEDIA_TYPES = ["image/jpeg", "image/png", "image/gif", "video/mp4", "audio/mpeg", "audio/ogg", "application/pdf"];

type Channel = NonNullable<Input["channel"]>;

/**
 * What a message on the picked channel leads to. The custom channel is the default, as in the
 * admin API: it is the one whose replies reach the webhook URL, which is what a rehearsal watches.
 */
function channelHint(channel: Channel): string {
  if (channel === "custom")
    return "Processed as POST /v1/incoming_custom_channel_message would process it; the bot's answer goes to the account's webhook URL (see Deliveries and Inbox).";
  return `Stored as received on ${BUILT_IN_CHANNELS[channel]}; the bot answers there, recorded as sent with no webhook: reply webhooks are for the custom channel only, so nothing reaches the webhook URL.`;
}

function inputFrom(form: HTMLFormElement, kind: Kind): Input {
  const input: Input = { channel: formValue(form, "channel") as Input["channel"], body: formValue(form, "body"), via: "dashboard" };
  if (kind === "reaction") Object.assign(input, { messageType: "reaction", reactionTo: formValue(form, "reactionTo") });
  if (kind === "media")
    Object.assign(input, { mediaUrl: formValue(form, "mediaUrl").trim(), mediaContentType: formValue(form, "mediaContentType").trim() });
  return input;
}

export function Simulate({ contact, messages, onDone }: { contact: Schemas["Contact"]; messages: Message[]; onDone: () => void }) {
  const action = useAction();
  const [kind, setKind] = useState<Kind>("text");
  const [channel, setChannel] = useState<Channel>("custom");
  const channels: [string, string][] = [
    ["custom", customChannelName(contact.customChannel ?? "custom", contact.fromId ?? contact.phone ?? contact.email)],
    ...Object.entries(BUILT_IN_CHANNELS),
  ];
  const targets = messages.filter((m) => m.messageType !== "reaction").reverse();
  return (
    <ActionForm
      class="card"
      title="Simulate a message from the contact"
      titleId="simulate-title"
      action={action}
      submit="Simulate message"
      done="Simulated: it shows in the conversation, and the bot answers if it is on."
      onSubmit={(form) => admin().simulateInbound(contact.id, inputFrom(form, kind))}
      onDone={(_, form) => {
        (form.elements.namedItem("body") as HTMLTextAreaElement).value = "";
        onDone();
      }}
    >
      <Field label="Channel" hint={channelHint(channel)}>
        {(id) => (
          <select id={id} name="channel" value={channel} onChange={(event) => setChannel(event.currentTarget.value as Channel)}>
            {channels.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Kind of message">
        {(id) => (
          <select id={id} name="kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as Kind)}>
            {KINDS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      {kind === "reaction" && targets.length === 0 ? <p class="muted">No message to react to yet.</p> : null}
      {kind === "reaction" ? (
        <>
          <SelectField
            label="React to"
            name="reactionTo"
            options={targets.map((m) => [m.messageSid ?? m.id, `${AUTHOR[m.source]}: ${m.body.slice(0, 60)}`] as const)}
          />
          <InputField label="Emoji" name="body" required maxLength={16} defaultValue="👍" />
        </>
      ) : (
        <TextAreaField label={kind === "media" ? "Caption" : "Message from the contact"} name="body" rows={2} required maxLength={4096} />
      )}
      {kind === "media" ? (
        <>
          <InputField label="Media URL" hint="A public https:// URL, or a data URL (data:<type>;base64,…)." name="mediaUrl" required />
          <InputField label="Content type" name="mediaContentType" required list="media-types" placeholder="image/jpeg" />
          <datalist id="media-types">
            {MEDIA_TYPES.map((type) => (
              <option key={type} value={type} />
            ))}
          </datalist>
        </>
      ) : null}
    </ActionForm>
  );
}
