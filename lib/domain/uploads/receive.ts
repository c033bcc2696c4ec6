import fs from "node:fs";
import path from "node:path";
import { asService } from "../../db/index.ts";
import { DomainError } from "../../errors/domain-error.ts";
import { asApiError } from "../../http/problem.ts";
import { requestIdFrom } from "../../http/request-id.ts";
import { jsonResponse, problemResponse } from "../../http/respond.ts";
import { storageConfig } from "./config.ts";
import { isUploadKey } from "./keys.ts";
import { type SignedPut, verifyPut } from "./local-signature.ts";
import { receiveBody } from "./receive-body.ts";
import { uploadSigningSecret } from "./signing-secret.ts";

const refused = (detail: string) => new DomainError("write_refused", detail);
const alreadyUsed = () => new DomainError("conflict", "This URL has already been used; mint a new one.");

async function uploadState(key: string): Promise<string | undefined> {
  const [row] = await asService((tx) =>
    tx.query<{ status: string }>("select status from app_private.uploads where key = $1", [key]),
  );
  return row?.status;
}

/**
 * PUT /storage/upload/<purpose>/<uuid>?expires&type&size&signature — the local driver's store.
 * Cheap checks first (key shape, signature, expiry, headers), then the bytes, then the store
 * marks the upload complete exactly once; only then does the file take its final name.
 */
export async function receiveUpload(request: Request, segments: readonly string[]): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  let tempPath: string | undefined;
  try {
    if (request.method !== "PUT") {
      throw new DomainError("method_not_allowed", "Upload URLs accept PUT only.", { allow: ["PUT"] });
    }
    const config = storageConfig();
    const key = segments.join("/");
    // Exactly <purpose>/<uuid>: "..", encoded slashes, absolute paths and the like never match.
    if (config.driver !== "local" || segments.length !== 2 || !isUploadKey(key)) {
      throw new DomainError("not_found", "No upload URL here.");
    }
    const put = signedPut(request, key);
    if (
      !verifyPut(uploadSigningSecret(config.dataDir), put, new URL(request.url).searchParams.get("signature") ?? "")
    ) {
      throw refused("The signature does not match this URL.");
    }
    if (put.expires * 1000 <= Date.now()) {
      throw refused(`The upload URL expired at ${new Date(put.expires * 1000).toISOString()}.`);
    }
    checkHeaders(request, put);
    const finalPath = path.resolve(/*turbopackIgnore: true*/ config.dir, key);
    if (!finalPath.startsWith(config.dir + path.sep)) throw new DomainError("not_found", "No upload URL here.");
    // Early answer for a used URL, so a replay does not make us store its bytes first; the atomic
    // check after the bytes arrive is what actually guarantees one PUT.
    if ((await uploadState(key)) === "complete") throw alreadyUsed();
    const received = await receiveBody(request.body, config.dir, put.size);
    tempPath = received.tempPath;
    const state = await asService(async (tx) => {
      const [row] = await tx.query<{ state: string }>("select app_private.complete_upload($1, $2, $3) as state", [
        key,
        put.contentType,
        put.size,
      ]);
      if (row?.state === "completed") {
        await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
        // link, not rename: it refuses to replace an existing file, whatever the database says.
        await fs.promises.link(received.tempPath, finalPath);
      }
      return row?.state ?? "unknown";
    });
    if (state === "already_complete") throw alreadyUsed();
    if (state === "expired") throw refused("The upload URL has expired.");
    if (state !== "completed") throw new DomainError("not_found", "No upload URL here.");
    return jsonResponse(200, { key, size: put.size, content_type: put.contentType }, requestId, {
      ETag: `"${received.sha256}"`,
    });
  } catch (error) {
    return problemResponse(asApiError(error, requestId), requestId);
  } finally {
    if (tempPath) await fs.promises.rm(tempPath, { force: true });
  }
}

function signedPut(request: Request, key: string): SignedPut {
  const query = new URL(request.url).searchParams;
  const expires = Number(query.get("expires"));
  const size = Number(query.get("size"));
  const contentType = query.get("type") ?? "";
  if (!Number.isSafeInteger(expires) || !Number.isSafeInteger(size) || size < 1 || !contentType) {
    throw refused("The URL is not a signed upload URL (expires, type, size and signature are required).");
  }
  return { key, expires, contentType, size };
}

/** The signed type and size must be what the client says it sends, before any byte is read. */
function checkHeaders(request: Request, put: SignedPut): void {
  const type = request.headers.get("content-type")?.trim().toLowerCase() ?? "";
  if (type !== put.contentType) {
    throw new DomainError("unsupported_media_type", `This URL accepts Content-Type: ${put.contentType} only.`);
  }
  const length = request.headers.get("content-length");
  if (length !== null && Number(length) > put.size) {
    throw new DomainError("payload_too_large", `This URL accepts exactly ${put.size} bytes.`);
  }
  if (length !== null && Number(length) !== put.size) {
    throw new DomainError(
      "malformed_request",
      `This URL accepts exactly ${put.size} bytes (Content-Length: ${length}).`,
    );
  }
}
