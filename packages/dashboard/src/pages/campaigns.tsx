/** Campaigns: every setting the interface names, editable, and the opening template's approval. */
import { useState } from "preact/hooks";
import type { PageProps } from "./shared.js";
import { unwrap } from "@intake/server/admin-client";
import { admin, type Campaign, type Schemas } from "../api/admin.js";
import { href, navigate } from "../router/router.js";
import { Field, formChecked, formValue } from "../ui/form.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { Link, Time } from "../ui/text.js";

const TYPES: Schemas["CampaignType"][] = ["Incoming", "Outgoing", "Combined"];
const STATES: Schemas["CampaignState"][] = ["Draft", "Live", "Paused", "Completed"];
const CHANNELS: Schemas["Channel"][] = ["messaging_app", "sms", "photo_social", "chat_app"];
const APPROVALS: Schemas["OpeningTemplate"]["approval"][] = ["draft", "submitted", "approved", "rejected"];

export function Campaigns({ accountId, account }: PageProps) {
  const campaigns = useLoad(() => admin().campaigns(accountId), [accountId]);
  const create = useAction();
  return (
    <Page title="Campaigns">
      <Loading loaded={campaigns}>
        {(rows) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col">Language</th>
                <th scope="col">Opening template</th>
                <th scope="col">Trigger on new list contacts</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
                    {account?.defaultCampaignId === c.id ? <span class="badge">default</span> : null}
                  </td>
                  <td>{c.type}</td>
                  <td>{c.state}</td>
                  <td>{c.language}</td>
                  <td>{c.openingTemplate ? c.openingTemplate.approval : "none"}</td>
                  <td>{c.triggerOnNewListContacts ? "on" : "off"}</td>
                  <td>
                    <Time at={c.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loading>
      <form
        class="card"
        aria-labelledby="new-campaign"
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          let created: Campaign | undefined;
          const ok = await create.run(async () => {
            created = await admin().createCampaign({ accountId, name: formValue(form, "name"), type: formValue(form, "type") as Campaign["type"] });
          });
          if (ok && created) navigate(href(`/campaigns/${created.id}`));
        }}
      >
        <h2 id="new-campaign">New campaign</h2>
        <Field label="Name">{(id) => <input id={id} name="name" required maxLength={200} />}</Field>
        <Field label="Type">{(id) => <Select id={id} name="type" options={TYPES} value="Combined" />}</Field>
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.busy}>
          Create campaign
        </button>
      </form>
    </Page>
  );
}

function Select<T extends string>({ id, name, options, value }: { id: string; name: string; options: readonly T[]; value: T }) {
  return (
    // Preact sets no default on a select: the option says it is selected.
    <select id={id} name={name}>
      {options.map((option) => (
        <option key={option} value={option} selected={option === value}>
          {option}
        </option>
      ))}
    </select>
  );
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

export function CampaignDetail({ id, account, reloadAccounts }: { id: string } & PageProps) {
  const campaign = useLoad(() => unwrap(admin().raw.GET("/campaigns/{campaignId}", { params: { path: { campaignId: id } } })), [id]);
  return <Loading loaded={campaign}>{(current) => <CampaignForm key={current.id} campaign={current} isDefault={account?.defaultCampaignId === id} onSaved={() => (campaign.reload(), reloadAccounts())} />}</Loading>;
}

function CampaignForm({ campaign, isDefault, onSaved }: { campaign: Campaign; isDefault: boolean; onSaved: () => void }) {
  const [faqs, setFaqs] = useState(campaign.faqs.length ? campaign.faqs : []);
  const [resources, setResources] = useState(campaign.resources);
  const [hasTemplate, setHasTemplate] = useState(campaign.openingTemplate !== null);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const makeDefault = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const patch: Schemas["CampaignPatch"] = {
      name: formValue(form, "name"),
      type: formValue(form, "type") as Campaign["type"],
      language: formValue(form, "language"),
      state: formValue(form, "state") as Campaign["state"],
      channel: formValue(form, "channel") as Campaign["channel"],
      botInstructions: formValue(form, "botInstructions"),
      companyInfo: formValue(form, "companyInfo"),
      goal: formValue(form, "goal"),
      faqs: faqs.filter((f) => f.question.trim() && f.answer.trim()),
      resources: resources.filter((r) => r.title.trim()).map((r) => ({ title: r.title, ...(r.url ? { url: r.url } : {}), ...(r.content ? { content: r.content } : {}) })),
      openingTemplate: hasTemplate ? { body: formValue(form, "templateBody"), approval: formValue(form, "templateApproval") as Schemas["OpeningTemplate"]["approval"] } : null,
      triggerOnNewListContacts: formChecked(form, "trigger"),
      followUps: {
        enabled: formChecked(form, "followUpsEnabled"),
        delaysHours: formValue(form, "delaysHours")
          .split(",")
          .map((part) => Number(part.trim()))
          .filter((n) => n > 0),
        cycles: Number(formValue(form, "cycles")),
        messagesPerCycle: Number(formValue(form, "messagesPerCycle")),
        messages: lines(formValue(form, "followUpMessages")),
      },
      botActive: formChecked(form, "botActive"),
      handOffPhrases: lines(formValue(form, "handOffPhrases")),
    };
    setSaved(false);
    if (await save.run(() => admin().updateCampaign(campaign.id, patch))) {
      setSaved(true);
      onSaved();
    }
  };

  return (
    <Page
      title={`Campaign: ${campaign.name}`}
      actions={
        isDefault ? (
          <span class="badge">default campaign</span>
        ) : (
          <button
            type="button"
            disabled={makeDefault.busy}
            onClick={() => makeDefault.run(() => admin().updateAccount(campaign.accountId, { defaultCampaignId: campaign.id }).then(onSaved))}
          >
            Make default
          </button>
        )
      }
    >
      <ErrorNote error={makeDefault.error} />
      <form class="settings" onSubmit={submit}>
        <fieldset>
          <legend>Campaign</legend>
          <Field label="Name">{(id) => <input id={id} name="name" defaultValue={campaign.name} required maxLength={200} />}</Field>
          <Field label="Type">{(id) => <Select id={id} name="type" options={TYPES} value={campaign.type} />}</Field>
          <Field label="Language">{(id) => <input id={id} name="language" defaultValue={campaign.language} required minLength={2} maxLength={35} />}</Field>
          <Field label="State">{(id) => <Select id={id} name="state" options={STATES} value={campaign.state} />}</Field>
          <Field label="Channel">{(id) => <Select id={id} name="channel" options={CHANNELS} value={campaign.channel} />}</Field>
        </fieldset>

        <fieldset>
          <legend>Bot</legend>
          <label class="check">
            <input type="checkbox" name="botActive" defaultChecked={campaign.botActive} /> Bot active
          </label>
          <Field label="Bot instructions">{(id) => <textarea id={id} name="botInstructions" rows={4} defaultValue={campaign.botInstructions} maxLength={20000} />}</Field>
          <Field label="Company info">{(id) => <textarea id={id} name="companyInfo" rows={4} defaultValue={campaign.companyInfo} maxLength={20000} />}</Field>
          <Field label="Goal">{(id) => <input id={id} name="goal" defaultValue={campaign.goal} maxLength={2000} />}</Field>
          <Field label="Hand-off phrases" hint="One a line: an inbound message with one is handed to a person.">
            {(id) => <textarea id={id} name="handOffPhrases" rows={3} defaultValue={campaign.handOffPhrases.join("\n")} />}
          </Field>
        </fieldset>

        <fieldset>
          <legend>FAQs</legend>
          {faqs.map((faq, i) => (
            <div class="row" key={i}>
              <Field label={`Question ${i + 1}`}>{(id) => <input id={id} value={faq.question} onInput={(e) => setFaqs(faqs.map((f, j) => (j === i ? { ...f, question: e.currentTarget.value } : f)))} />}</Field>
              <Field label={`Answer ${i + 1}`}>{(id) => <input id={id} value={faq.answer} onInput={(e) => setFaqs(faqs.map((f, j) => (j === i ? { ...f, answer: e.currentTarget.value } : f)))} />}</Field>
              <button type="button" class="link-button" onClick={() => setFaqs(faqs.filter((_, j) => j !== i))}>
                Remove FAQ {i + 1}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setFaqs([...faqs, { question: "", answer: "" }])}>
            Add FAQ
          </button>
        </fieldset>

        <fieldset>
          <legend>Resources</legend>
          {resources.map((resource, i) => (
            <div class="row" key={i}>
              <Field label={`Title ${i + 1}`}>{(id) => <input id={id} value={resource.title} onInput={(e) => setResources(resources.map((r, j) => (j === i ? { ...r, title: e.currentTarget.value } : r)))} />}</Field>
              <Field label={`URL ${i + 1}`}>{(id) => <input id={id} type="url" value={resource.url ?? ""} onInput={(e) => setResources(resources.map((r, j) => (j === i ? { ...r, url: e.currentTarget.value } : r)))} />}</Field>
              <Field label={`Content ${i + 1}`}>{(id) => <input id={id} value={resource.content ?? ""} onInput={(e) => setResources(resources.map((r, j) => (j === i ? { ...r, content: e.currentTarget.value } : r)))} />}</Field>
              <button type="button" class="link-button" onClick={() => setResources(resources.filter((_, j) => j !== i))}>
                Remove resource {i + 1}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setResources([...resources, { title: "" }])}>
            Add resource
          </button>
        </fieldset>

        <fieldset>
          <legend>Opening message</legend>
          <label class="check">
            <input type="checkbox" name="hasTemplate" checked={hasTemplate} onChange={(e) => setHasTemplate(e.currentTarget.checked)} /> Has an opening template
          </label>
          {hasTemplate ? (
            <>
              <Field label="Opening template" hint="{{firstName}} and {{lastName}} are replaced with the contact's names.">
                {(id) => <textarea id={id} name="templateBody" rows={3} required maxLength={4096} defaultValue={campaign.openingTemplate?.body ?? ""} />}
              </Field>
              <Field label="Template approval" hint="Only an approved template is sent.">
                {(id) => <Select id={id} name="templateApproval" options={APPROVALS} value={campaign.openingTemplate?.approval ?? "draft"} />}
              </Field>
            </>
          ) : null}
          <label class="check">
            <input type="checkbox" name="trigger" defaultChecked={campaign.triggerOnNewListContacts} /> Trigger on New Contacts Added to List
          </label>
        </fieldset>

        <fieldset>
          <legend>Follow-ups</legend>
          <label class="check">
            <input type="checkbox" name="followUpsEnabled" defaultChecked={campaign.followUps.enabled} /> Follow-ups enabled
          </label>
          <Field label="Delays (hours)" hint="Quiet time before each message of a cycle, comma-separated, up to three.">
            {(id) => <input id={id} name="delaysHours" defaultValue={campaign.followUps.delaysHours.join(", ")} required />}
          </Field>
          <Field label="Cycles">{(id) => <input id={id} name="cycles" type="number" min={1} max={3} defaultValue={String(campaign.followUps.cycles)} required />}</Field>
          <Field label="Messages per cycle">{(id) => <input id={id} name="messagesPerCycle" type="number" min={1} max={3} defaultValue={String(campaign.followUps.messagesPerCycle)} required />}</Field>
          <Field label="Follow-up messages" hint="One a line, used in turn.">
            {(id) => <textarea id={id} name="followUpMessages" rows={3} defaultValue={campaign.followUps.messages.join("\n")} />}
          </Field>
        </fieldset>

        <ErrorNote error={save.error} />
        {saved ? (
          <p role="status" class="note">
            Saved.
          </p>
        ) : null}
        <button type="submit" disabled={save.busy}>
          Save campaign
        </button>
      </form>
    </Page>
  );
}
