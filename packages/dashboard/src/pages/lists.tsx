/** Lists with their linked campaign and member count, and a new one. */
import { admin, type Schemas } from "../api/admin.js";
import { useReloadOn } from "../api/live.js";
import { href, navigate } from "../router/router.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, InputField, SelectField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import { Link, Time } from "../ui/text.js";
import { CAMPAIGN_CHANGE, LIST_CHANGE, nameOf, useCampaigns, type PageProps } from "./shared.js";

const columns = (campaigns: Schemas["Campaign"][] | undefined): Column<Schemas["List"]>[] => [
  { head: "Name", cell: (list) => <Link to={`/lists/${list.id}`}>{list.name}</Link> },
  {
    head: "Linked campaign",
    cell: (list) => (list.campaignId ? <Link to={`/campaigns/${list.campaignId}`}>{nameOf(campaigns, list.campaignId)}</Link> : "—"),
  },
  { head: "Members", cell: (list) => list.memberCount },
  { head: "Created", cell: (list) => <Time at={list.createdAt} /> },
];

export function Lists({ accountId }: PageProps) {
  const lists = useLoad(() => admin().lists(accountId), [accountId]);
  const campaigns = useCampaigns(accountId);
  useReloadOn(accountId, LIST_CHANGE, lists.reload);
  useReloadOn(accountId, CAMPAIGN_CHANGE, campaigns.reload);
  const create = useAction();
  return (
    <Page title="Lists">
      <Loading loaded={lists}>{(rows) => <Table columns={columns(campaigns.data)} rows={rows} rowKey={(list) => list.id} />}</Loading>
      <ActionForm
        class="card"
        title="New list"
        titleId="new-list"
        action={create}
        submit="Create list"
        onSubmit={(form) =>
          admin().createList({ accountId, name: formValue(form, "name"), campaignId: formValue(form, "campaignId") || null })
        }
        onDone={(created) => navigate(href(`/lists/${created.id}`))}
      >
        <InputField label="Name" name="name" required maxLength={200} />
        <CampaignSelect campaigns={campaigns.data ?? []} value={null} />
      </ActionForm>
    </Page>
  );
}

/** The list's linked campaign, or none. */
export function CampaignSelect({ campaigns, value }: { campaigns: Schemas["Campaign"][]; value: string | null }) {
  const options = [["", "None"] as const, ...campaigns.map((c) => [c.id, c.name] as const)];
  return (
    <SelectField
      label="Linked campaign"
      hint="New members get its opening message when its trigger is on."
      name="campaignId"
      options={options}
      value={value}
    />
  );
}
