import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { asService } from "../../db/index.ts";
import { DomainError } from "../../errors/domain-error.ts";
import { asApiError } from "../../http/problem.ts";
import { requestIdFrom } from "../../http/request-id.ts";
import { problemResponse } from "../../http/respond.ts";
import { storageConfig } from "./config.ts";
import { isUploadKey } from "./keys.ts";
import { verifyGet } from "./local-signature.ts";
import { uploadSigningSecret } from "./signing-secret.ts";

/**
 * GET /storage/media/<purpose>/<uuid>?expires&signature — the local driver's signed downloads
 * (export links). The signature proves the service minted the link for this key; the upload must
 * still exist and be complete, so a deleted account's media stop answering at once.
 */
export async function serveMedia(request: Request, segments: readonly string[]): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  try {
    if (request.method !== "GET" && request.method !== "HEAD") {
      throw new DomainError("method_not_allowed", "Media links accept GET only.", { allow: ["GET", "HEAD"] });
    }
    const config = storageConfig();
    const key = segments.join("/");
    const gone = new DomainError("not_found", "No media here.");
    if (config.driver !== "local" || segments.length !== 2 || !isUploadKey(key)) throw gone;
    const query = new URL(request.url).searchParams;
    const expires = Number(query.get("expires"));
    const signature = query.get("signature") ?? "";
    if (
      !Number.isSafeInteger(expires) ||
      !verifyGet(uploadSigningSecret(config.dataDir), { key, expires }, signature)
    ) {
      throw new DomainError("write_refused", "The signature does not match this link.");
    }
    if (expires * 1000 <= Date.now()) {
      throw new DomainError("write_refused", `The link expired at ${new Date(expires * 1000).toISOString()}.`);
    }
    const [row] = await asService((tx) =>
      tx.query<{ content_type: string; size: string }>(
        "select content_type, size::text as size from app_private.uploads where key = $1 and status = 'complete'",
        [key],
      ),
    );
    const file = path.resolve(config.dir, key);
    if (!row || !file.startsWith(config.dir + path.sep) || !fs.existsSync(file)) throw gone;
    const headers = {
      "Content-Type": row.content_type,
      "Content-Length": row.size,
      "Cache-Control": "private, max-age=0, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": `attachment; filename="${key.replace("/", "-")}"`,
    };
    if (request.method === "HEAD") return new Response(null, { status: 200, headers });
    const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 200, headers });
  } catch (error) {
    return problemResponse(asApiError(error, requestId), requestId);
  }
}
