import { createHash, createHmac } from "node:crypto";

/**
 * An independent AWS Signature Version 4 check of a presigned S3 URL (query authentication),
 * written from the AWS documentation: canonical request → string to sign → derived key → HMAC.
 * Answers what was signed so tests can assert on it.
 */
export interface PresignedCheck {
  valid: boolean;
  signedHeaders: string[];
  expiresSeconds: number;
  signedAt: Date;
  credentialScope: string;
}

const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const hmac = (key: Buffer | string, value: string) => createHmac("sha256", key).update(value).digest();

export function verifyPresignedUrl(
  method: string,
  url: string,
  headers: Record<string, string>,
  credentials: { accessKeyId: string; secretAccessKey: string },
): PresignedCheck {
  const parsed = new URL(url);
  const query = parsed.searchParams;
  const credential = query.get("X-Amz-Credential") ?? "";
  const [accessKeyId, date = "", region = "", service = "", terminator = ""] = credential.split("/");
  const amzDate = query.get("X-Amz-Date") ?? "";
  const signedHeaders = (query.get("X-Amz-SignedHeaders") ?? "").split(";");
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  lower.host = parsed.host;
  const canonicalQuery = [...query.entries()]
    .filter(([key]) => key !== "X-Amz-Signature")
    .map(([key, value]) => [rfc3986(key), rfc3986(value)])
    .sort(([a = ""], [b = ""]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
  const canonicalPath = parsed.pathname
    .split("/")
    .map((part) => rfc3986(decodeURIComponent(part)))
    .join("/");
  const canonicalRequest = [
    method,
    canonicalPath,
    canonicalQuery,
    ...signedHeaders.map((name) => `${name}:${lower[name] ?? ""}`),
    "",
    signedHeaders.join(";"),
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const scope = `${date}/${region}/${service}/${terminator}`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), service), terminator);
  const expected = createHmac("sha256", key).update(stringToSign).digest("hex");
  const signedAt = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  return {
    valid:
      accessKeyId === credentials.accessKeyId &&
      query.get("X-Amz-Algorithm") === "AWS4-HMAC-SHA256" &&
      expected === query.get("X-Amz-Signature"),
    signedHeaders,
    expiresSeconds: Number(query.get("X-Amz-Expires")),
    signedAt,
    credentialScope: scope,
  };
}
