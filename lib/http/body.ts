import { ApiError } from "./problem.ts";

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a JSON body: JSON only (415), at most 1 MiB counted while streaming (413), parseable (400).
 * An empty body is an empty object, so bodiless POSTs (check-in) work.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(request);
  if (text.trim() === "") return {};
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new ApiError("unsupported_media_type", "Send the body as application/json.", {
      headers: { "Accept-Post": "application/json", "Accept-Patch": "application/json" },
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError("malformed_request", `The body is not valid JSON: ${(error as Error).message}`);
  }
}

async function readLimited(request: Request): Promise<string> {
  if (!request.body) return "";
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
  return Buffer.concat(chunks).toString("utf8");
}

const tooLarge = () => new ApiError("payload_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes.`);
