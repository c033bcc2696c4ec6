import { MAX_BODY_BYTES } from "../../registry/limits.ts";
import { duplicateKeyPointer } from "./json-duplicates.ts";
import { ApiError } from "./problem.ts";

export { MAX_BODY_BYTES };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON body before anything touches the database, so a refused body writes nothing:
 * at most 1 MiB, checked against Content-Length and again while streaming (413); JSON only (415);
 * strict UTF-8 and parseable (400), no key given twice (422). An empty body is an empty object, so
 * bodiless POSTs (check-in) work. `payloadAt` names where an envelope carries the input (invoke's
 * /input), so a repeated field is reported where the input's other errors are: relative to it.
 */
export async function readJsonBody(request: Request, options: { payloadAt?: string } = {}): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request);
  if (bytes.byteLength === 0) return {};
  const type = request.headers.get("content-type") ?? "";
  if (!JSON_TYPE.test(type)) {
    throw new ApiError("unsupported_media_type", `Send the body as application/json${type ? `, not ${type}` : ""}.`, {
      headers: { "Accept-Post": "application/json", "Accept-Patch": "application/json" },
    });
  }
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
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const tooLarge = () =>
  new ApiError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB), the most accepted.`);
