import { MAX_BODY_BYTES } from "../../registry/limits.ts";
import { duplicateKeyPointer } from "./json-duplicates.ts";
import { ApiError } from "./problem.ts";

export { MAX_BODY_BYTES };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
/** The names the WHATWG Encoding Standard gives UTF-8 that clients send. */
const UTF8 = new Set(["utf-8", "utf8"]);
/** One parameter of a media type: a name and a token or quoted-string value (RFC 9110 §5.6.6). */
const PARAMETER = /^\s*([^\s;=]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)\s*(?:;|$)|^[^;]*(?:;|$)/;

/**
 * The charsets a JSON Content-Type declares, lower-cased ([] for none), or null when the type is
 * not JSON. Parameters are split outside quoted strings, so a quoted value cannot hide or fake one.
 */
export function jsonCharsets(contentType: string): string[] | null {
  const semicolon = contentType.indexOf(";");
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim();
  if (!JSON_TYPE.test(type)) return null;
  const charsets: string[] = [];
  let rest = semicolon === -1 ? "" : contentType.slice(semicolon + 1);
  while (rest.trim() !== "") {
    const match = PARAMETER.exec(rest) as RegExpExecArray;
    const [whole, name, value] = match;
    if (name?.toLowerCase() === "charset") {
      const raw = value ?? "";
      const quoted = raw.startsWith('"') && raw.length > 1;
      charsets.push((quoted ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw).trim().toLowerCase());
    }
    rest = rest.slice(whole.length);
  }
  return charsets;
}

/** The first charset other than UTF-8 a JSON Content-Type declares, or undefined. */
export function foreignCharset(contentType: string): string | undefined {
  return jsonCharsets(contentType)?.find((charset) => !UTF8.has(charset));
}

/**
 * What a 415 for a content coding answers (RFC 9110 §12.5.3): the codings the server reads, none
 * but identity. Decoding gzip would make the 1 MiB limit a limit on the coded bytes, not on what is
 * parsed, and no client compresses its JSON unasked.
 */
export const ACCEPTED_CODINGS = { "Accept-Encoding": "identity" } as const;

/** The Content-Encoding a request declares, unless none or identity: its body would be read coded. */
export function foreignCoding(headers: Headers): string | undefined {
  const coding = headers.get("content-encoding")?.trim() ?? "";
  return coding === "" || coding.toLowerCase() === "identity" ? undefined : coding;
}

/** 415 unless the type is JSON in UTF-8: JSON between systems is UTF-8 (RFC 8259 §8.1). */
function checkJsonType(type: string): void {
  const headers = { "Accept-Post": "application/json", "Accept-Patch": "application/json" };
  if (jsonCharsets(type) === null) {
    throw new ApiError("unsupported_media_type", `Send the body as application/json${type ? `, not ${type}` : ""}.`, {
      headers,
    });
  }
  const other = foreignCharset(type);
  if (other !== undefined) {
    throw new ApiError(
      "unsupported_media_type",
      `JSON is UTF-8 (RFC 8259): send charset=utf-8 or no charset, not charset=${other || "(empty)"}.`,
      { headers },
    );
  }
}

/**
 * Reads a JSON body before anything touches the database, so a refused body writes nothing:
 * at most 1 MiB, checked against Content-Length and again while streaming (413); JSON only, in no
 * charset but UTF-8 and no content coding (415); strict UTF-8 and parseable (400), no key given twice (422). An empty body is an empty object, so
 * bodiless POSTs (check-in) work. `payloadAt` names where an envelope carries the input (invoke's
 * /input), so a repeated field is reported where the input's other errors are: relative to it.
 */
export async function readJsonBody(request: Request, options: { payloadAt?: string } = {}): Promise<unknown> {
  const coding = foreignCoding(request.headers);
  if (coding !== undefined) {
    throw new ApiError(
      "unsupported_media_type",
      `The body is sent with Content-Encoding: ${coding}; only unencoded bodies are read (identity).`,
      { headers: ACCEPTED_CODINGS },
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const type = request.headers.get("content-type") ?? "";
  // A declared body of the wrong type is refused before it is read (the server drains it after).
  if (declared > 0) checkJsonType(type);
  const bytes = await readLimited(request);
  if (bytes.byteLength === 0) return {};
  checkJsonType(type);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("malformed_request", "The body is not valid UTF-8.");
  }
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ApiError("malformed_request", `The body is not valid JSON: ${(error as Error).message}`);
  }
  const found = duplicateKeyPointer(text);
  if (found !== null) {
    const base = options.payloadAt;
    const repeated = base && found.startsWith(`${base}/`) ? found.slice(base.length) : found;
    throw new ApiError("invalid_request", `${repeated} appears more than once in the body.`, {
      errors: [{ pointer: repeated, code: "duplicate_parameter", message: "Send it once." }],
    });
  }
  return parsed;
}

async function readLimited(request: Request): Promise<Uint8Array> {
  const body = await readCapped(request, MAX_BODY_BYTES);
  if (body === null) throw tooLarge();
  return body;
}

/** The body's bytes, or null once they pass max (the reader is cancelled: nothing more is read). */
export async function readCapped(request: Request, max: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const tooLarge = () =>
  new ApiError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB), the most accepted.`);
