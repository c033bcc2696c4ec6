import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as storageRoute from "@/app/storage/upload/[...key]/route";
import { api } from "../../support/api";

type Handler = (request: Request, context: { params: Promise<{ key: string[] }> }) => Promise<Response>;

/** Local driver settings for one test file: a fresh uploads dir and a known signing secret. */
export function useLocalStorage(): { dir: string; restore: () => void } {
  const saved = {
    dir: process.env.UPLOADS_DIR,
    secret: process.env.UPLOAD_SIGNING_SECRET,
    bucket: process.env.S3_BUCKET,
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-uploads-"));
  process.env.UPLOADS_DIR = dir;
  process.env.UPLOAD_SIGNING_SECRET = "test-secret-of-at-least-thirty-two-characters";
  delete process.env.S3_BUCKET;
  return {
    dir,
    restore() {
      restoreEnv("UPLOADS_DIR", saved.dir);
      restoreEnv("UPLOAD_SIGNING_SECRET", saved.secret);
      restoreEnv("S3_BUCKET", saved.bucket);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/**
 * Calls the real storage route handler the way Next would after routing: the URL as sent, and the
 * catch-all params as Next decodes them (or as given, to try segments a router might produce).
 */
export async function storagePut(
  url: string,
  body: string,
  headers: Record<string, string>,
  segments?: string[],
  method = "PUT",
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const parsed = new URL(url);
  const key =
    segments ??
    parsed.pathname
      .replace(/^\/storage\/upload\//, "")
      .split("/")
      .map(decodeURIComponent);
  const handler = (storageRoute as unknown as Record<string, Handler>)[method];
  if (!handler) throw new Error(`storage route exports no ${method}`);
  const response = await handler(new Request(parsed, { method, headers, body: method === "GET" ? undefined : body }), {
    params: Promise.resolve({ key }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
}

export interface Minted {
  url: string;
  method: string;
  headers: Record<string, string>;
  key: string;
  expires_at: string;
}

export async function mint(token: string, purpose: string, contentType: string, size: number): Promise<Minted> {
  const response = await api("POST", "/uploads", { token, body: { purpose, content_type: contentType, size } });
  if (response.status !== 201) throw new Error(`mint failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as Minted;
}

/** Mints and sends the bytes, answering the key of a completed upload. */
export async function uploaded(token: string, purpose: string, bytes = "fake image bytes", type = "image/png") {
  const minted = await mint(token, purpose, type, Buffer.byteLength(bytes));
  const put = await storagePut(minted.url, bytes, minted.headers);
  if (put.status !== 200) throw new Error(`put failed: ${put.status} ${JSON.stringify(put.body)}`);
  return minted.key;
}
