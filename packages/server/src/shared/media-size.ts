/**
 * The size of the file a data URL carries, from its base64 text, without decoding it. The receive
 * endpoint checks a file against the per-message limit with it, and the store adds up each
 * account's stored media with it: one measure for both, so what was let in is what is counted.
 */
export function dataUrlBytes(mediaUrl: string | null | undefined): number {
  if (!mediaUrl || !/^data:/i.test(mediaUrl)) return 0;
  const comma = mediaUrl.indexOf(",");
  // Whitespace in the data is allowed (and ignored) when the file is checked, so it is here too.
  return comma < 0 ? 0 : base64Bytes(mediaUrl.slice(comma + 1).replace(/\s/g, ""));
}

/** The decoded size of base64 text without whitespace. */
export function base64Bytes(encoded: string): number {
  const padding = encoded.endsWith("==") ? 2 : encoded.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((encoded.length * 3) / 4) - padding);
}
