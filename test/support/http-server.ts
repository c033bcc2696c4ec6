import http from "node:http";
import type { AddressInfo } from "node:net";
import * as restRoute from "@/app/api/v1/[...path]/route";
import { nodeListener } from "@/lib/http/node-adapter";
import { apiHandler } from "@/lib/surfaces/api-routes";

type Handler = (request: Request, context: { params: Promise<{ path: string[] }> }) => Promise<Response>;

/**
 * The API behind a real node:http listener in this process (so it shares the test's database): for
 * clients that need a URL, such as the typed client. What server.ts does: the API routes it answers
 * itself, and for the paths it leaves to Next (percent-encoded ones) the catch-all route file.
 */
export async function serveApi(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(
    nodeListener("serveApi", async (request) => {
      const url = new URL(request.url);
      const direct = apiHandler(request.method, url.pathname);
      if (direct) return await direct(request);
      const handler = (restRoute as unknown as Record<string, Handler>)[request.method];
      const path = url.pathname.replace(/^\/api\/v1\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
      return handler && url.pathname.startsWith("/api/v1/")
        ? await handler(request, { params: Promise.resolve({ path }) })
        : new Response(null, { status: 404 });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
