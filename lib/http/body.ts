import { MAX_BODY_BYTES } from "../../registry/limits.ts";
import { ApiError } from "./problem.ts";

export { MAX_BODY_BYTES };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON body before anything touches the database, so a refused body writes nothing:
 * at most 1 MiB, checked against Content-Length and again while streaming (413); JSON only (415);
 * strict UTF-8 and parseable (400). An empty body is an empty object, so bodiless POSTs (check-in) work.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
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
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError("malformed_request", `The body is not valid JSON: ${(error as Error).message}`);
  }
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
