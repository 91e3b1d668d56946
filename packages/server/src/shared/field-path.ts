/** A field's place as a person writes it: `["accounts", "0", "apiKey"]` -> `accounts[0].apiKey`. */
export function fieldPath(parts: readonly string[]): string {
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}
