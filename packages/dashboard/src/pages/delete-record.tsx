/** The card at the foot of a contact's, a list's or a campaign's page that deletes it, once confirmed. */
import { href, navigate } from "../router/router.js";
import { Confirm } from "../ui/confirm.js";
import { useAction } from "../ui/load.js";

export interface DeleteRecordProps {
  /** "contact", "list", "campaign". */
  noun: string;
  name: string;
  /** What else goes, and what stays (the admin API's rule for this kind). */
  takes: string;
  remove: () => Promise<unknown>;
  /** The section's page, shown once it is deleted. */
  back: string;
}

export function DeleteRecord({ noun, name, takes, remove, back }: DeleteRecordProps) {
  const action = useAction();
  return (
    <section class="card" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete this {noun}</h2>
      <p class="muted">{takes}</p>
      <Confirm
        label={`Delete ${noun}`}
        question={`Delete ${name}? This cannot be undone.`}
        confirm={`Yes, delete this ${noun}`}
        action={action}
        onConfirm={remove}
        onDone={() => navigate(href(back))}
      />
    </section>
  );
}

/** What each deletion takes, as the admin API does it. */
export const TAKES = {
  contact:
    "Its conversation goes with it: messages, their webhooks, alerts, list memberships and its pending work (bot answers, webhook attempts, queued openings, follow-ups).",
  list: "Its contacts stay, and so does its campaign; the opening messages still queued for its members are cancelled, unless the member is on another list of that campaign.",
  campaign: "Its lists stay, unlinked; its queued opening messages and follow-ups are cancelled; messages already sent stay.",
};
