/** Campaigns: the account's, with their state and trigger, and a new one. */
import { admin, type Campaign, type Schemas } from "../api/admin.js";
import { useReloadOn } from "../api/live.js";
import { href, navigate } from "../router/router.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, InputField, SelectField } from "../ui/fields.js";
import { useAction } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import { Link, Time } from "../ui/text.js";
import { CAMPAIGN_CHANGE, useCampaigns, type PageProps } from "./shared.js";

export const TYPES: Schemas["CampaignType"][] = ["Incoming", "Outgoing", "Combined"];

const columns = (defaultCampaignId: string | null | undefined): Column<Campaign>[] => [
  {
    head: "Name",
    cell: (c) => (
      <>
        <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
        {defaultCampaignId === c.id ? <span class="badge">default</span> : null}
      </>
    ),
  },
  { head: "Type", class: "nowrap", cell: (c) => c.type },
  { head: "State", class: "nowrap", cell: (c) => c.state },
  { head: "Language", class: "nowrap", cell: (c) => c.language },
  { head: "Opening template", class: "nowrap", cell: (c) => (c.openingTemplate ? c.openingTemplate.approval : "none") },
  { head: "Trigger on new list contacts", class: "nowrap", cell: (c) => (c.triggerOnNewListContacts ? "on" : "off") },
  { head: "Created", cell: (c) => <Time at={c.createdAt} /> },
];

export function Campaigns({ accountId, account }: PageProps) {
  const campaigns = useCampaigns(accountId);
  useReloadOn(accountId, CAMPAIGN_CHANGE, campaigns.reload);
  const create = useAction();
  return (
    <Page title="Campaigns">
      <Loading loaded={campaigns}>
        {(rows) => <Table columns={columns(account?.defaultCampaignId)} rows={rows} rowKey={(c) => c.id} />}
      </Loading>
      <ActionForm
        class="card"
        title="New campaign"
        titleId="new-campaign"
        action={create}
        submit="Create campaign"
        onSubmit={(form) =>
          admin().createCampaign({ accountId, name: formValue(form, "name"), type: formValue(form, "type") as Campaign["type"] })
        }
        onDone={(created) => navigate(href(`/campaigns/${created.id}`))}
      >
        <InputField label="Name" name="name" required maxLength={200} />
        <SelectField label="Type" name="type" options={TYPES} value="Combined" />
      </ActionForm>
    </Page>
  );
}
