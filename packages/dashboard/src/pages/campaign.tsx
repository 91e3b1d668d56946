/** A campaign: every setting the interface names, editable, and the opening template's approval. */
import { unwrap } from "@intake/server/admin-client";
import { useEffect, useState } from "preact/hooks";
import { admin, type Campaign, type Schemas } from "../api/admin.js";
import { ofType, useReloadOn } from "../api/live.js";
import { ActionForm } from "../ui/action-form.js";
import { Check, formChecked, formValue, InputField, SelectField, TextAreaField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { RowsEditor } from "../ui/rows-editor.js";
import { ActiveBot, useActiveBot } from "./bot.js";
import { TYPES } from "./campaigns.js";
import { DeleteRecord, TAKES } from "./delete-record.js";
import type { PageProps } from "./shared.js";

const STATES: Schemas["CampaignState"][] = ["Draft", "Live", "Paused", "Completed"];
const CHANNELS: Schemas["Channel"][] = ["messaging_app", "sms", "photo_social", "chat_app"];
const APPROVALS: Schemas["OpeningTemplate"]["approval"][] = ["draft", "submitted", "approved", "rejected"];

type Faq = Campaign["faqs"][number];
type Resource = Campaign["resources"][number];

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The follow-up delays typed ("24, 72"): an entry that is not a positive number of hours is
 * refused by name, never dropped (the campaign would keep fewer delays than were typed).
 */
function delaysFrom(text: string): number[] {
  const entries = text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const hours = Number(entry);
    if (!Number.isFinite(hours) || hours <= 0) {
      throw new Error(`Delays (hours): "${entry}" is not a number of hours. Write each delay as a number above 0, comma-separated: 2, 72.`);
    }
  }
  return entries.map(Number);
}

export function CampaignDetail({ id, accountId, account, reloadAccounts }: { id: string } & PageProps) {
  const campaign = useLoad(() => unwrap(admin().raw.GET("/campaigns/{campaignId}", { params: { path: { campaignId: id } } })), [id]);
  // Changed elsewhere: the fields not being edited follow (an edited field keeps what was typed).
  useReloadOn(accountId, (event) => ofType("campaign.updated")(event) && "campaignId" in event && event.campaignId === id, campaign.reload);
  return (
    <Loading loaded={campaign}>
      {(current) => (
        <CampaignForm
          key={current.id}
          campaign={current}
          isDefault={account?.defaultCampaignId === id}
          onSaved={() => (campaign.reload(), reloadAccounts())}
        />
      )}
    </Loading>
  );
}

/** The campaign's settings as the form holds them, with the rows edited beside it. */
function patchFrom(
  form: HTMLFormElement,
  { faqs, resources, hasTemplate }: { faqs: Faq[]; resources: Resource[]; hasTemplate: boolean },
): Schemas["CampaignPatch"] {
  return {
    name: formValue(form, "name"),
    type: formValue(form, "type") as Campaign["type"],
    language: formValue(form, "language"),
    state: formValue(form, "state") as Campaign["state"],
    channel: formValue(form, "channel") as Campaign["channel"],
    botInstructions: formValue(form, "botInstructions"),
    companyInfo: formValue(form, "companyInfo"),
    goal: formValue(form, "goal"),
    faqs: faqs.filter((f) => f.question.trim() && f.answer.trim()),
    resources: resources
      .filter((r) => r.title.trim())
      .map((r) => ({ title: r.title, ...(r.url ? { url: r.url } : {}), ...(r.content ? { content: r.content } : {}) })),
    openingTemplate: hasTemplate
      ? { body: formValue(form, "templateBody"), approval: formValue(form, "templateApproval") as Schemas["OpeningTemplate"]["approval"] }
      : null,
    triggerOnNewListContacts: formChecked(form, "trigger"),
    followUps: {
      enabled: formChecked(form, "followUpsEnabled"),
      delaysHours: delaysFrom(formValue(form, "delaysHours")),
      cycles: Number(formValue(form, "cycles")),
      messagesPerCycle: Number(formValue(form, "messagesPerCycle")),
      messages: lines(formValue(form, "followUpMessages")),
    },
    botActive: formChecked(form, "botActive"),
    handOffPhrases: lines(formValue(form, "handOffPhrases")),
  };
}

function CampaignForm({ campaign, isDefault, onSaved }: { campaign: Campaign; isDefault: boolean; onSaved: () => void }) {
  const [faqs, setFaqs] = useState(campaign.faqs);
  const [resources, setResources] = useState(campaign.resources);
  const [hasTemplate, setHasTemplate] = useState(campaign.openingTemplate !== null);
  // The rows follow the campaign as saved, here or elsewhere.
  useEffect(() => {
    setFaqs(campaign.faqs);
    setResources(campaign.resources);
    setHasTemplate(campaign.openingTemplate !== null);
  }, [campaign]);
  const save = useAction();
  const makeDefault = useAction();
  const actions = isDefault ? (
    <span class="badge">default campaign</span>
  ) : (
    <button
      type="button"
      disabled={makeDefault.busy}
      onClick={() => makeDefault.run(() => admin().updateAccount(campaign.accountId, { defaultCampaignId: campaign.id }).then(onSaved))}
    >
      Make default
    </button>
  );

  return (
    <Page title={`Campaign: ${campaign.name}`} actions={actions}>
      <ErrorNote error={makeDefault.error} />
      <ActionForm
        class="settings"
        action={save}
        submit="Save campaign"
        done="Saved."
        onSubmit={(form) => admin().updateCampaign(campaign.id, patchFrom(form, { faqs, resources, hasTemplate }))}
        onDone={onSaved}
      >
        <CampaignFields campaign={campaign} />
        <BotFields campaign={campaign} />
        <RowsEditor
          legend="FAQs"
          noun="FAQ"
          rows={faqs}
          onChange={setFaqs}
          blank={{ question: "", answer: "" }}
          fields={[
            { key: "question", label: "Question" },
            { key: "answer", label: "Answer", lines: 3 },
          ]}
        />
        <RowsEditor
          legend="Resources"
          noun="resource"
          rows={resources}
          onChange={setResources}
          blank={{ title: "" }}
          fields={[
            { key: "title", label: "Title" },
            { key: "url", label: "URL", input: { type: "url" } },
            { key: "content", label: "Content" },
          ]}
        />
        <OpeningFields campaign={campaign} hasTemplate={hasTemplate} onHasTemplate={setHasTemplate} />
        <FollowUpFields campaign={campaign} />
      </ActionForm>
      <DeleteRecord
        noun="campaign"
        name={campaign.name}
        takes={TAKES.campaign}
        remove={() => admin().deleteCampaign(campaign.id)}
        back="/campaigns"
      />
    </Page>
  );
}

function CampaignFields({ campaign }: { campaign: Campaign }) {
  return (
    <fieldset>
      <legend>Campaign</legend>
      <InputField label="Name" name="name" defaultValue={campaign.name} required maxLength={200} />
      <SelectField label="Type" name="type" options={TYPES} value={campaign.type} />
      <InputField label="Language" name="language" defaultValue={campaign.language} required minLength={2} maxLength={35} />
      <SelectField label="State" name="state" options={STATES} value={campaign.state} />
      <SelectField label="Channel" name="channel" options={CHANNELS} value={campaign.channel} />
    </fieldset>
  );
}

function BotFields({ campaign }: { campaign: Campaign }) {
  const bot = useActiveBot();
  return (
    <fieldset>
      <legend>Bot</legend>
      {bot.data ? <ActiveBot info={bot.data} /> : null}
      <Check name="botActive" label="Bot active" defaultChecked={campaign.botActive} />
      <TextAreaField label="Bot instructions" name="botInstructions" rows={4} defaultValue={campaign.botInstructions} maxLength={20000} />
      <TextAreaField label="Company info" name="companyInfo" rows={4} defaultValue={campaign.companyInfo} maxLength={20000} />
      <InputField label="Goal" name="goal" defaultValue={campaign.goal} maxLength={2000} />
      <TextAreaField
        label="Hand-off phrases"
        hint="One a line: an inbound message with one is handed to a person."
        name="handOffPhrases"
        rows={3}
        defaultValue={campaign.handOffPhrases.join("\n")}
      />
    </fieldset>
  );
}

function OpeningFields({
  campaign,
  hasTemplate,
  onHasTemplate,
}: {
  campaign: Campaign;
  hasTemplate: boolean;
  onHasTemplate: (has: boolean) => void;
}) {
  return (
    <fieldset>
      <legend>Opening message</legend>
      <Check
        name="hasTemplate"
        label="Has an opening template"
        checked={hasTemplate}
        onChange={(e) => onHasTemplate(e.currentTarget.checked)}
      />
      {hasTemplate ? (
        <>
          <TextAreaField
            label="Opening template"
            hint="{{firstName}} and {{lastName}} are replaced with the contact's names; any other {{…}} is refused."
            name="templateBody"
            rows={3}
            required
            maxLength={4096}
            defaultValue={campaign.openingTemplate?.body ?? ""}
          />
          <SelectField
            label="Template approval"
            hint="Only an approved template is sent."
            name="templateApproval"
            options={APPROVALS}
            value={campaign.openingTemplate?.approval ?? "draft"}
          />
        </>
      ) : null}
      <Check name="trigger" label="Trigger on New Contacts Added to List" defaultChecked={campaign.triggerOnNewListContacts} />
    </fieldset>
  );
}

function FollowUpFields({ campaign: { followUps } }: { campaign: Campaign }) {
  return (
    <fieldset>
      <legend>Follow-ups</legend>
      <Check name="followUpsEnabled" label="Follow-ups enabled" defaultChecked={followUps.enabled} />
      <InputField
        label="Delays (hours)"
        hint="Quiet time before each message of a cycle, comma-separated, up to three."
        name="delaysHours"
        defaultValue={followUps.delaysHours.join(", ")}
        required
      />
      <InputField label="Cycles" name="cycles" type="number" min={1} max={3} defaultValue={String(followUps.cycles)} required />
      <InputField
        label="Messages per cycle"
        name="messagesPerCycle"
        type="number"
        min={1}
        max={3}
        defaultValue={String(followUps.messagesPerCycle)}
        required
      />
      <TextAreaField
        label="Follow-up messages"
        hint="One a line, used in turn; {{firstName}} and {{lastName}} as in the opening template."
        name="followUpMessages"
        rows={3}
        defaultValue={followUps.messages.join("\n")}
      />
    </fieldset>
  );
}
