/**
 * Trigger the funnel for a contact: add it to a list (the admin API's importContacts, `source:
 * manual`, as the dashboard's list page adds by hand), saying beforehand what the list's campaign
 * will do: send the opening message, or why it will not.
 */
import { useState } from "preact/hooks";
import { admin, type Campaign, type Schemas } from "../api/admin.js";
import { ActionForm } from "../ui/action-form.js";
import { Field } from "../ui/fields.js";
import { useAction } from "../ui/load.js";
import { Link } from "../ui/text.js";

/** What joining a list linked to this campaign does. */
export function funnelOutcome(campaign: Campaign | undefined): string {
  if (!campaign) return "The list has no linked campaign: joining it sends nothing.";
  const named = `Campaign “${campaign.name}”`;
  if (campaign.state !== "Live") return `${named} is ${campaign.state}, not Live: joining sends nothing.`;
  if (!campaign.triggerOnNewListContacts) return `${named} has Trigger on New Contacts Added to List off: joining sends nothing.`;
  if (!campaign.openingTemplate) return `${named} has no opening template: nothing is sent.`;
  if (campaign.openingTemplate.approval !== "approved") return `${named}'s opening template is ${campaign.openingTemplate.approval}, not approved: it is not sent, and the reason is recorded.`;
  return `${named} sends its opening message.`;
}

interface AddToListProps {
  contactId: string;
  listIds: string[];
  lists: Schemas["List"][] | undefined;
  campaigns: Campaign[] | undefined;
  onDone: () => void;
}

export function AddToList({ contactId, listIds, lists, campaigns, onDone }: AddToListProps) {
  const action = useAction();
  const [chosen, setChosen] = useState<string | undefined>();
  const [added, setAdded] = useState("");
  if (!lists) return null;
  const open = lists.filter((l) => !listIds.includes(l.id));
  const list = open.find((l) => l.id === chosen) ?? open[0];
  if (!list) {
    return (
      <section class="card" aria-labelledby="add-to-list-title">
        <h2 id="add-to-list-title">Add to a list</h2>
        {added ? <p role="status" class="note">Added to {added}.</p> : null}
        <p class="muted">{lists.length ? "The contact is in every list." : <>No lists yet: <Link to="/lists">make one</Link>.</>}</p>
      </section>
    );
  }
  const campaign = campaigns?.find((c) => c.id === list.campaignId);
  return (
    <ActionForm
      class="card"
      title="Add to a list"
      titleId="add-to-list-title"
      action={action}
      submit="Add to list"
      done={`Added to ${added}.`}
      onSubmit={() => (setAdded(list.name), admin().importContacts(list.id, { source: "manual", contactIds: [contactId] }))}
      onDone={() => (setChosen(undefined), onDone())}
    >
      <Field label="List" hint={funnelOutcome(campaign)}>
        {(id) => (
          <select id={id} name="listId" value={list.id} onChange={(event) => setChosen(event.currentTarget.value)}>
            {open.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </ActionForm>
  );
}
