/**
 * Media on a received message: a public URL is stored as given; a data URL's declared type must
 * match mediaContentType and the bytes themselves, which are sniffed (file-type) rather than
 * trusted.
 */
import { badRequest } from "../shared/errors.js";
import { exactSize } from "../shared/byte-size.js";
import { base64Bytes } from "../shared/media-size.js";

const DATA_URL = /^data:([^;,]+)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Types whose bytes carry no signature; checked as text instead. */
const TEXT_TYPES = /^(text\/[\w.+-]+|application\/(?:[\w.-]+\+)?(?:json|xml)|image\/svg\+xml)$/;

/**
 * Other names of one format, after the experimental "x-" is dropped from the subtype (so
 * audio/x-flac is audio/flac, video/x-matroska is video/matroska).
 */
const ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "image/vnd.microsoft.icon": "image/icon",
  "audio/mp3": "audio/mpeg",
  "audio/mpeg3": "audio/mpeg",
  "audio/wave": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/m4a": "audio/mp4",
  "audio/opus": "audio/ogg",
  "audio/mid": "audio/midi",
  "video/m4v": "video/mp4",
  "video/avi": "video/vnd.avi",
  "video/msvideo": "video/vnd.avi",
  "application/zip-compressed": "application/zip",
};

/** Top-level types one container format is declared under (audio/ogg, video/ogg, application/ogg). */
const CONTAINER_TOPS = new Set(["audio", "video", "application"]);

/** The legacy Office formats, all stored in one container a sniffer reports as application/x-cfb. */
const COMPOUND_FILE_TYPES = new Set([
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/vnd.ms-outlook",
  "application/vnd.ms-project",
  "application/vnd.ms-works",
  "application/vnd.visio",
  "application/mspublisher",
  "application/msi",
]);

const canonical = (type: string) => {
  const base = type.split(";")[0]!.trim().toLowerCase();
  const slash = base.indexOf("/");
  const plain = slash < 0 ? base : `${base.slice(0, slash)}/${base.slice(slash + 1).replace(/^x-/, "")}`;
  return ALIASES[plain] ?? plain;
};

const isXml = (type: string) => type === "text/xml" || type === "application/xml" || type.endsWith("+xml");

/** Whether bytes a sniffer names `sniffed` are a file of the declared `expected` type (both canonical). */
function sniffedAs(sniffed: string, expected: string, bytes: Uint8Array): boolean {
  if (sniffed === expected) return true;
  const [sniffedTop, sniffedSub] = sniffed.split("/") as [string, string];
  const [expectedTop, expectedSub] = expected.split("/") as [string, string];
  if (sniffedSub === expectedSub && CONTAINER_TOPS.has(sniffedTop) && CONTAINER_TOPS.has(expectedTop)) return true;
  if (sniffed === "application/cfb") return COMPOUND_FILE_TYPES.has(expected);
  // An XML declaration is all a sniffer sees of SVG, RSS, XHTML...: the text decides.
  if (sniffed === "application/xml") return isXml(expected) && isText(bytes) && textMatches(expected, bytes);
  return false;
}

/**
 * Checks a message's media and returns the size of the file it embeds (0 for a public URL, which
 * is stored as given and not fetched). `mediaContentType` is a MIME type here: the contract
 * requires one beside a mediaUrl (validated before this runs). `at` is where the fields are in
 * the request, for the errors: `customData.` in /v1's receive endpoint, nothing in the admin API's.
 */
export async function checkMedia(mediaUrl: string, mediaContentType: string, maxBytes: number, at = "customData."): Promise<number> {
  if (/^https?:\/\//i.test(mediaUrl)) {
    try {
      new URL(mediaUrl);
    } catch {
      throw badRequest("VALIDATION_ERROR", `${at}mediaUrl is not a valid URL.`);
    }
    return 0;
  }
  const match = DATA_URL.exec(mediaUrl);
  if (!match) {
    throw badRequest(
      "VALIDATION_ERROR",
      `${at}mediaUrl must be a public http(s) URL or a data URL of the form data:<MIME_TYPE>;base64,<ENCODED_DATA>.`,
    );
  }
  const [, declared, , data] = match as unknown as [string, string, string, string];
  const expected = canonical(mediaContentType);
  if (canonical(declared) !== expected) {
    throw badRequest("VALIDATION_ERROR", `${at}mediaContentType ${mediaContentType} does not match the data URL's type ${declared}.`);
  }
  const encoded = data.replace(/\s/g, "");
  // Unpadded base64 may end anywhere but one character into a group; padded, it fills its groups.
  if (!BASE64.test(encoded) || encoded.length % 4 === 1 || (encoded.endsWith("=") && encoded.length % 4 !== 0)) {
    throw badRequest("VALIDATION_ERROR", `${at}mediaUrl's data is not valid base64.`);
  }
  const size = base64Bytes(encoded);
  if (size > maxBytes) {
    throw badRequest(
      "PAYLOAD_TOO_LARGE",
      `The file in ${at}mediaUrl is ${exactSize(size)}; the per-message media limit is ${exactSize(maxBytes)}. ` +
        "Send a smaller file, or a public https:// URL to it.",
    );
  }
  if (size === 0) throw badRequest("VALIDATION_ERROR", `The file in ${at}mediaUrl is empty.`);
  const bytes = decodeBase64(encoded);
  // Loaded with the first file sent: most servers never receive one, and file-type is dozens of modules to load at start.
  const { fileTypeFromBuffer } = await import("file-type/core");
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed) {
    if (!sniffedAs(canonical(sniffed.mime), expected, bytes)) {
      throw badRequest("VALIDATION_ERROR", `${at}mediaContentType is ${mediaContentType} but the file's content is ${sniffed.mime}.`);
    }
    return size;
  }
  if (TEXT_TYPES.test(expected) && isText(bytes) && textMatches(expected, bytes)) return size;
  throw badRequest(
    "VALIDATION_ERROR",
    `The file in ${at}mediaUrl could not be confirmed as ${mediaContentType}: its bytes match no known ${TEXT_TYPES.test(expected) ? "text" : "file"} format.`,
  );
}

function decodeBase64(encoded: string): Uint8Array {
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Text types that have a structure of their own are checked for it. */
function textMatches(type: string, bytes: Uint8Array): boolean {
  const text = new TextDecoder()
    .decode(bytes)
    .replace(/^\uFEFF/, "")
    .trim();
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }
  if (type === "image/svg+xml") return /<svg[\s>]/i.test(text);
  if (isXml(type)) return text.startsWith("<");
  return true;
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    // ignoreBOM is false by default; Workers' types ask for it all the same.
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
