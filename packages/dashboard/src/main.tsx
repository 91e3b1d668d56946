import { render } from "preact";
import { App } from "./app.js";
import { token } from "./api/admin.js";

// The printed URL carries the token in its fragment (never sent to the server): keep it for this
// tab and take it out of the address bar, history and any screenshot.
const fragment = new URLSearchParams(location.hash.slice(1));
const given = fragment.get("token");
if (given) {
  token.set(given);
  fragment.delete("token");
  const rest = fragment.toString();
  history.replaceState(null, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
}

render(<App />, document.getElementById("app")!);
