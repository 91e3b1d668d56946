// What tsc says to an integrator who gets a body wrong: the rule by name, whether the body is an
// object literal or held in a variable. Compiles snippets against the client with the
// repository's settings and reads the diagnostics' text.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");

const SNIPPETS = {
  literal: `void query.contacts.create({ phone_number: "+14155550123" });`,
  variable: `const body = { phone_number: "+14155550123" }; void query.contacts.create(body);`,
  member: `const member = { contactId: "ct_1" }; void bearer.lists.addContact("lst_1", member);`,
  mediaLiteral: `void query.messages.receive({ customData: { messageSid: "s", fromId: "f", toId: "t", body: "b", mediaUrl: "https://f.example/a.png" } });`,
  mediaVariable: `const customData = { messageSid: "s", fromId: "f", toId: "t", body: "b", mediaUrl: "https://f.example/a.png" }; void query.messages.receive({ customData });`,
  right: `void query.messages.receive({ customData: { messageSid: "s", fromId: "f", toId: "t", body: "b", mediaUrl: "https://f.example/a.png", mediaContentType: "image/png" } });
void query.messages.receive({ customData: { id: "m", fromId: "f", toId: "t", body: "b" } });
const contact = { phone: "+14155550123", firstName: "Ada" }; void query.contacts.create(contact);`,
};
let found: Record<keyof typeof SNIPPETS, string[]>;

/** tsc's messages (every line of each chain) per snippet, each a file with query and bearer clients in scope; one program for all. */
beforeAll(() => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const files = new Map(
    Object.entries(SNIPPETS).map(([name, code]) => [
      join(here, `__${name}__.ts`),
      `import { createIntakeClient } from "@intake/client";
const query = createIntakeClient({ auth: "query", apiKey: "k", baseUrl: "https://api.example.com/v1" });
const bearer = createIntakeClient({ auth: "bearer", apiKey: "k", baseUrl: "https://api.example.com/v1" });
void query; void bearer;
${code}
`,
    ]),
  );
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    files.has(name) ? ts.createSourceFile(name, files.get(name)!, language) : getSourceFile(name, language);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const program = ts.createProgram([...files.keys()], { ...config.options, noEmit: true }, host);
  found = Object.fromEntries(
    Object.keys(SNIPPETS).map((name) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(join(here, `__${name}__.ts`)))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    ]),
  ) as typeof found;
}, 120_000);

const messages = (name: keyof typeof SNIPPETS) => found[name];

describe("tsc's message for a body of the other form's spelling", () => {
  it.each([
    ["an object literal", "literal"],
    ["a variable", "variable"],
  ] as const)("names the field to use, for %s", (_, code) => {
    const [message, ...others] = messages(code);
    expect(others).toEqual([]);
    expect(message).toContain(`is not assignable to type '"phone_number is the bearer form's spelling: use phone"'`);
    expect(message).not.toMatch(/Property 'email' is missing/);
  });

  it("names contactId for a list member in a variable, on a bearer client", () => {
    const [message] = messages("member");
    expect(message).toContain(`"contactId is the query form's spelling: use contact_id"`);
  });
});

describe("tsc's message for mediaUrl without mediaContentType", () => {
  it.each([
    ["an object literal", "mediaLiteral"],
    ["a variable", "mediaVariable"],
  ] as const)("names the rule, for %s", (_, code) => {
    const [message, ...others] = messages(code);
    expect(others).toEqual([]);
    expect(message).toContain("mediaContentType is required with mediaUrl: the file's MIME type, such as image/png");
    expect(message).not.toMatch(/Property 'id' is missing/);
  });

  it("takes mediaUrl with its type, a message without media, and a right body in a variable", () => {
    expect(messages("right")).toEqual([]);
  });
});
