import { createHash } from "node:crypto";
import { IDEMPOTENCY, LIMIT_HEADERS } from "../../registry/limits.ts";
import { ApiError } from "./problem.ts";

/**
 * The Idempotency-Key header's value, or null when absent. Accepts the draft's structured-field
 * string ("abc", with \" and \\ escapes) and, as many clients send, a bare value of visible ASCII
 * without quotes, commas or spaces. Empty, longer than 255 characters, or more than one → 400.
 */
export function idempotencyKeyFrom(headers: Headers): string | null {
  const raw = headers.get(LIMIT_HEADERS.idempotencyKey);
  if (raw === null) return null;
  const value = raw.trim();
  const key = value.startsWith('"')
    ? sfString(value)
    : /^[\x21-\x7e]+$/.test(value) && !/[",\\]/.test(value)
      ? value
      : null;
  if (key === null) {
    throw malformed('Send one key, as a quoted string ("…") or a bare token of visible ASCII characters.');
  }
  if (key.length === 0) throw malformed("The key is empty.");
  if (key.length > IDEMPOTENCY.maxKeyLength) {
    throw malformed(`The key is ${key.length} characters long; at most ${IDEMPOTENCY.maxKeyLength} are accepted.`);
  }
  return key;
}

/** RFC 9651 sf-string: printable ASCII between quotes; only \" and \\ are escapes; nothing after. */
function sfString(value: string): string | null {
  let out = "";
  for (let i = 1; i < value.length; i++) {
    const char = value[i] ?? "";
    if (char === "\\") {
      const next = value[++i];
      if (next !== '"' && next !== "\\") return null;
      out += next;
    } else if (char === '"') {
      return i === value.length - 1 ? out : null;
    } else if (char < " " || char > "~") {
      return null;
    } else {
      out += char;
    }
  }
  return null; // no closing quote
}

const malformed = (detail: string) => new ApiError("malformed_request", `Idempotency-Key: ${detail}`);

/** The payload's identity: the capability and its validated input, keys in a stable order. */
export function fingerprint(tool: string, input: unknown): string {
  return createHash("sha256").update(stableJson({ tool, input })).digest("hex");
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
