// The floor app's two routes (the very GET functions of bench/floor-app) served by node:http with nothing of
// Next in between, through the adapter server.ts uses for the API (lib/http/node-adapter.ts): how much of a
// request's cost is Next's pipeline (seventh pass, §3). Bench-only.
//   PORT=… DATABASE_URL=… node bench/plain-server.ts
import http from "node:http";
import { nodeListener } from "../lib/http/node-adapter.ts";
import { GET as naive } from "./floor-app/app/naive/route.js";
import { GET as floor } from "./floor-app/app/static/route.js";

const routes: Record<string, (request: Request) => Response | Promise<Response>> = {
  "/naive": naive,
  "/static": floor,
};

http
  .createServer(
    nodeListener("plain-server", async (request) => {
      const route = routes[new URL(request.url).pathname];
      return route ? await route(request) : new Response(null, { status: 404 });
    }),
  )
  .listen(Number(process.env.PORT), "127.0.0.1");
