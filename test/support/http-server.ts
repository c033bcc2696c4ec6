import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import * as restRoute from "@/app/api/v1/[...path]/route";

type Handler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>;

/**
 * The REST route handler behind a real node:http listener in this process (so it shares the test's
 * database): for clients that need a URL, such as the typed client. The same route file `next start`
 * serves, CORS wrapper included.
 */
export async function serveApi(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        duplex: "half",
      } as RequestInit);
      const handler = (restRoute as unknown as Record<string, Handler>)[req.method ?? "GET"];
      const path = url.pathname.replace(/^\/api\/v1\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
      const response =
        handler && url.pathname.startsWith("/api/v1/")
          ? await handler(request, { params: Promise.resolve({ path }) })
          : new Response(null, { status: 404 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      console.error("serveApi: unexpected error", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
