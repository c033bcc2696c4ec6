import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyPresignedUrl } from "./sigv4";

export const S3_CREDENTIALS = { accessKeyId: "AKIDTESTUPLOADS", secretAccessKey: "test-secret-key-for-uploads" };

interface StoredObject {
  body: Buffer;
  contentType: string;
}

/**
 * A minimal S3-compatible endpoint on 127.0.0.1 for the real AWS SDK and for fetch: PUT with a
 * presigned URL (signature, expiry and exact Content-Length checked as S3 does) and HEAD. HEAD is
 * not authenticated here; the SDK's header-signed requests are the SDK's business.
 */
export async function startFakeS3(bucket: string) {
  const objects = new Map<string, StoredObject>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
    const prefix = `/${bucket}/`;
    if (!url.pathname.startsWith(prefix)) return end(response, 404, "NoSuchBucket");
    const key = decodeURIComponent(url.pathname.slice(prefix.length));
    if (request.method === "HEAD") {
      const object = objects.get(key);
      if (!object) return end(response, 404, "");
      response.writeHead(200, { "Content-Length": object.body.length, "Content-Type": object.contentType });
      return response.end();
    }
    if (request.method !== "PUT") return end(response, 405, "MethodNotAllowed");
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
    );
    const check = verifyPresignedUrl("PUT", url.toString(), headers, S3_CREDENTIALS);
    if (!check.valid) return end(response, 403, "SignatureDoesNotMatch");
    if (Date.now() > check.signedAt.getTime() + check.expiresSeconds * 1000) return end(response, 403, "AccessDenied");
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.length !== Number(request.headers["content-length"])) return end(response, 400, "IncompleteBody");
      objects.set(key, { body, contentType: request.headers["content-type"] ?? "" });
      response.writeHead(200, { ETag: '"fake"' });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function end(response: http.ServerResponse, status: number, code: string) {
  response.writeHead(status, { "Content-Type": "application/xml" });
  response.end(code ? `<Error><Code>${code}</Code></Error>` : undefined);
}
