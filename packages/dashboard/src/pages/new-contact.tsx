/**
 * A contact made by hand (the admin API's createContact, by the rules of POST /v1/contacts): a new
 * one's conversation opens, where it can be added to a list; a phone number or email the account
 * already has names that contact instead.
 */
import { unwrap } from "@intake/server/admin-client";
import { useState } from "preact/hooks";
import { admin, type Schemas } from "../api/admin.js";
import { href, navigate } from "../router/router.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, InputField } from "../ui/fields.js";
import { useAction } from "../ui/load.js";
import { Note } from "../ui/page.js";
import { contactName, Link } from "../ui/text.js";

/** The contact the form describes: empty fields are left out. */
function inputFrom(form: HTMLFormElement, accountId: string): Schemas["ContactInput"] {
  const input: Schemas["ContactInput"] = { accountId };
  for (const field of ["firstName", "lastName", "phone", "email"] as const) {
    const value = formValue(form, field).trim();
    if (value) input[field] = value;
  }
  if (!input.phone && !input.email) throw new Error("Give a phone number or an email: a contact needs one of them.");
  return input;
}

/** The contact, and whether it is new (201) or the account's own already (200). */
async function create(input: Schemas["ContactInput"]): Promise<{ contact: Schemas["Contact"]; isNew: boolean }> {
  const call = admin().raw.POST("/contacts", { body: input });
  const contact = await unwrap(call);
  return { contact, isNew: (await call).response.status === 201 };
}

export function NewContact({ accountId }: { accountId: string }) {
  const action = useAction();
  const [existing, setExisting] = useState<Schemas["Contact"] | undefined>();
  return (
    <ActionForm
      class="card"
      title="New contact"
      titleId="new-contact"
      action={action}
      submit="Create contact"
      onSubmit={(form) => (setExisting(undefined), create(inputFrom(form, accountId)))}
      onDone={({ contact, isNew }, form) => {
        if (!isNew) return setExisting(contact);
        form.reset();
        navigate(href(`/contacts/${contact.id}`));
      }}
      after={
        existing ? (
          <Note>
            This phone number or email is already a contact's: <Link to={`/contacts/${existing.id}`}>{contactName(existing)}</Link>.
          </Note>
        ) : null
      }
    >
      <div class="form-grid">
        <InputField label="First name" name="firstName" maxLength={200} autoComplete="off" />
        <InputField label="Last name" name="lastName" maxLength={200} autoComplete="off" />
        <InputField
          label="Phone number"
          name="phone"
          type="tel"
          maxLength={64}
          placeholder="+14155550123"
          autoComplete="off"
          hint="With the country code."
        />
        <InputField label="Email address" name="email" type="email" maxLength={320} autoComplete="off" />
      </div>
    </ActionForm>
  );
}
