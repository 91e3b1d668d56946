/**
 * Trigger the funnel for a contact: add it to a list (the admin API's importContacts, `source:
 * manual`, as the dashboard's list page adds by hand), saying beforehand what the list's campaign
 * will do: send the opening message, or why it will not; and that the contact's conversation moves
 * to that campaign when it does, away from the campaign it is in.
 */
import { useState } from "preact/hooks";
import { admin, type Campaign, type Schemas } from "../api/admin.js";
import { ActionForm } from "../ui/action-form.js";
import { Field } from "../ui/fields.js";
import { useAction } from "../ui/load.js";
import { Link } from "../ui/text.js";
import { nameOf } from "./shared.js";

/** What joining a list linked to this campaign does. */
export function funnelOutcome(campaign: Campaign | undefined): string {
  if (!campaign) return "The list has no linked campaign: joining it sends nothing.";
  const named = `Campaign “${campaign.name}”`;
  if (campaign.state !== "Live") return `${named} is ${campaign.state}, not Live: joining sends nothing.`;
  if (!campaign.triggerOnNewListContacts) return `${named} has Trigger on New Contacts Added to List off: joining sends nothing.`;
  if (!campaign.openingTemplate) return `${named} has no opening template: nothing is sent.`;
  if (campaign.openingTemplate.approval !== "approved")
    return `${named}'s opening template is ${campaign.openingTemplate.approval}, not approved: it is not sent, and the reason is recorded.`;
  return `${named} sends its opening message.`;
}

/** True when joining a list linked to this campaign sends its opening message (what moves the contact to it). */
const sendsOpening = (campaign: Campaign | undefined): campaign is Campaign =>
  !!campaign && campaign.state === "Live" && campaign.triggerOnNewListContacts && campaign.openingTemplate?.approval === "approved";

/** The warning that the contact's conversation moves from its campaign to the list's, or null when it stays. */
export function campaignMove(from: string | null, to: Campaign | undefined, campaigns: Campaign[] | undefined): string | null {
  if (!from || !sendsOpening(to) || to.id === from) return null;
  return `The contact moves from campaign “${nameOf(campaigns, from)}” to campaign “${to.name}”: the bot and follow-ups of “${to.name}” take over its conversation.`;
}

/** What an import's answer says of contacts that joined from another campaign: "2 of them were in another campaign (…)". */
export function movesNote(moves: Schemas["ImportResult"]["campaignMoves"], campaigns: Campaign[] | undefined): string {
  if (!moves.length) return "";
  const from = [...new Set(moves.map((m) => nameOf(campaigns, m.fromCampaignId)))].map((name) => `“${name}”`).join(", ");
  const to = nameOf(campaigns, moves[0]!.toCampaignId);
  const count = moves.length === 1 ? "1 of them was" : `${moves.length} of them were`;
  return ` ${count} in campaign ${from}: once “${to}” sends the opening message, the conversation moves to “${to}”.`;
}

interface AddToListProps {
  contactId: string;
  /** The campaign the contact's conversation belongs to now. */
  campaignId: string | null;
  listIds: string[];
  lists: Schemas["List"][] | undefined;
  campaigns: Campaign[] | undefined;
  onDone: () => void;
}

export function AddToList({ contactId, campaignId, listIds, lists, campaigns, onDone }: AddToListProps) {
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
        {added ? (
          <p role="status" class="note">
            Added to {added}.
          </p>
        ) : null}
        <p class="muted">
          {lists.length ? (
            "The contact is in every list."
          ) : (
            <>
              No lists yet: <Link to="/lists">make one</Link>.
            </>
          )}
        </p>
      </section>
    );
  }
  const campaign = campaigns?.find((c) => c.id === list.campaignId);
  const move = campaignMove(campaignId, campaign, campaigns);
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
      {move ? (
        <p class="note warning" role="note">
          {move}
        </p>
      ) : null}
    </ActionForm>
  );
}
