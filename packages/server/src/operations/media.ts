/**
 * Media on a received message: a public URL is stored as given; a data URL's declared type must
 * match mediaContentType and the bytes themselves, which are sniffed (file-type) rather than
 * trusted.
 */
import { fileTypeFromBuffer } from "file-type/core";
import { badRequest } from "../http/errors.js";
import { byteSize } from "../http/exchange.js";

const DATA_URL = /^data:([^;,]+)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MIME = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;.*)?$/;

/** Types whose bytes carry no signature; checked as text instead. */
const TEXT_TYPES = /^(text\/[\w.+-]+|application\/json|application\/xml|image\/svg\+xml)$/;

/** Names a sniffer reports for a type a sender may declare under another name. */
const ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "audio/mp3": "audio/mpeg",
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/x-m4a": "audio/mp4",
  "audio/m4a": "audio/mp4",
  "video/x-m4v": "video/mp4",
  "application/x-pdf": "application/pdf",
};

const canonical = (type: string) => {
  const base = type.split(";")[0]!.trim().toLowerCase();
  return ALIASES[base] ?? base;
};

export async function checkMedia(mediaUrl: string, mediaContentType: string | null | undefined, maxBytes: number) {
  if (!mediaContentType) {
    throw badRequest("VALIDATION_ERROR", "customData.mediaContentType is required when customData.mediaUrl is given.");
  }
  if (!MIME.test(mediaContentType)) {
    throw badRequest("VALIDATION_ERROR", `customData.mediaContentType must be a MIME type such as image/png (got ${JSON.stringify(mediaContentType)}).`);
  }
  if (/^https?:\/\//i.test(mediaUrl)) {
    try {
      new URL(mediaUrl);
    } catch {
      throw badRequest("VALIDATION_ERROR", "customData.mediaUrl is not a valid URL.");
    }
    return;
  }
  const match = DATA_URL.exec(mediaUrl);
  if (!match) {
    throw badRequest(
      "VALIDATION_ERROR",
      "customData.mediaUrl must be a public http(s) URL or a data URL of the form data:<MIME_TYPE>;base64,<ENCODED_DATA>.",
    );
  }
  const [, declared, , data] = match as unknown as [string, string, string, string];
  const expected = canonical(mediaContentType);
  if (canonical(declared) !== expected) {
    throw badRequest("VALIDATION_ERROR", `customData.mediaContentType ${mediaContentType} does not match the data URL's type ${declared}.`);
  }
  const encoded = data.replace(/\s/g, "");
  if (!BASE64.test(encoded) || encoded.length % 4 === 1) {
    throw badRequest("VALIDATION_ERROR", "customData.mediaUrl's data is not valid base64.");
  }
  const size = Math.floor((encoded.length * 3) / 4) - (encoded.endsWith("==") ? 2 : encoded.endsWith("=") ? 1 : 0);
  if (size > maxBytes) {
    throw badRequest("PAYLOAD_TOO_LARGE", `The file in customData.mediaUrl is ${size} bytes; the limit is ${maxBytes} bytes (${byteSize(maxBytes)}).`);
  }
  if (size === 0) throw badRequest("VALIDATION_ERROR", "The file in customData.mediaUrl is empty.");
  const bytes = decodeBase64(encoded);
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed) {
    if (canonical(sniffed.mime) !== expected) {
      throw badRequest("VALIDATION_ERROR", `customData.mediaContentType is ${mediaContentType} but the file's content is ${sniffed.mime}.`);
    }
    return;
  }
  if (TEXT_TYPES.test(expected) && isText(bytes) && textMatches(expected, bytes)) return;
  throw badRequest(
    "VALIDATION_ERROR",
    `The file in customData.mediaUrl could not be confirmed as ${mediaContentType}: its bytes match no known ${TEXT_TYPES.test(expected) ? "text" : "file"} format.`,
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
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, "").trim();
  if (type === "application/json") {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }
  if (type === "image/svg+xml") return /<svg[\s>]/i.test(text);
  if (type.endsWith("/xml")) return text.startsWith("<");
  return true;
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
