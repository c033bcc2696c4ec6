import type { AddressInfo } from "node:net";
import { nodeListener } from "@/lib/http/node-adapter";
import { handleApiWithoutNext } from "@/lib/surfaces/api-routes";
import { createNodeServer } from "@/lib/surfaces/node-server";

/**
 * The API behind a real node:http listener in this process (so it shares the test's database): for
 * clients that need a URL, such as the typed client. What server.ts and Next answer between them
 * (lib/surfaces/api-routes.ts), behind server.ts's own node:http server (lib/surfaces/node-server.ts).
 */
export async function serveApi(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createNodeServer("serveApi", nodeListener("serveApi", handleApiWithoutNext));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
