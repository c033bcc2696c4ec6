import { strFromU8, unzipSync } from "fflate";
import * as restRoute from "@/app/api/v1/[...path]/route";

/**
 * Calls the real Next.js route handler in-process, the way `next start` would after routing:
 * the same Request object, the same params promise, the same Response back.
 */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

type Handler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>;

export async function api(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const url = new URL(path.startsWith("/api/") ? path : `/api/v1${path}`, "http://localhost");
  const segments = url.pathname
    .replace(/^\/api\/v1\/?/, "")
    .split("/")
    .filter(Boolean)
    .map(decodeURIComponent);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const handler = (restRoute as unknown as Record<string, Handler>)[method];
  if (!handler) throw new Error(`route exports no ${method}`);
  const response = await handler(new Request(url, { method, headers, body }), {
    params: Promise.resolve({ path: segments }),
  });
  if (response.headers.get("content-type") === "application/zip") {
    // The export's archive, read back as the JSON answer invoke gives: { files: { name: document } }.
    const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const files = Object.fromEntries(
      Object.entries(entries).map(([name, bytes]) => [name, JSON.parse(strFromU8(bytes))]),
    );
    return { status: response.status, headers: response.headers, body: { files } };
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
