import { useState } from "preact/hooks";
import { logIn } from "../api/admin.js";
import { InputField } from "../ui/fields.js";

export function Login({ onLogIn }: { onLogIn: () => void }) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = ((event.currentTarget as HTMLFormElement).elements.namedItem("token") as HTMLInputElement).value.trim();
    setBusy(true);
    const ok = await logIn(value).catch(() => false);
    setBusy(false);
    if (ok) onLogIn();
    else setError("The server refused this token. Use the admin token it printed at start (or gave with --admin-token).");
  };
  return (
    <main id="main" class="login">
      <h1>Intake dashboard</h1>
      <p>Log in with the admin token the server printed at start. The URL it printed logs in by itself.</p>
      <form onSubmit={submit}>
        <InputField label="Admin token" name="token" type="password" autoComplete="off" required autoFocus />
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
    </main>
  );
}
