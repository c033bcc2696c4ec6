import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import bcrypt from "bcryptjs";
import { exportJWK, generateKeyPair, type JWK, jwtVerify, SignJWT } from "jose";
import { asService } from "@/lib/db";

/**
 * A local stand-in for Supabase Auth (GoTrue) answering the shapes its API documents, so the real
 * @supabase/ssr and supabase-js code runs against it: password and refresh-token grants, sign-up
 * (auto-confirmed), the user, logout (local/global/others), the JWKS (ES256), and the admin
 * delete. Like GoTrue it keeps users in auth.users of the service's own database (bcrypt hashes),
 * and its sessions in memory.
 */
export interface FakeGoTrue {
  url: string;
  secretKey: string;
  publishableKey: string;
  /** Lifetime of the access tokens it issues from now on. */
  accessTokenSeconds: number;
  /** Session ids currently live. */
  liveSessions(): string[];
  /** Signs a token with this fake's key, as GoTrue would, for tests of the verifier. */
  sign(claims: Record<string, unknown>, seconds?: number): Promise<string>;
  close(): Promise<void>;
}

interface Session {
  id: string;
  userId: string;
  refreshToken: string;
}

interface UserRow {
  id: string;
  email: string;
  encrypted_password: string | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  email_confirmed_at: string | null;
  last_sign_in_at: string | null;
}

const USER_COLUMNS = `id, email, encrypted_password, raw_app_meta_data, raw_user_meta_data,
  to_jsonb(created_at) #>> '{}' as created_at, to_jsonb(updated_at) #>> '{}' as updated_at,
  to_jsonb(email_confirmed_at) #>> '{}' as email_confirmed_at, to_jsonb(last_sign_in_at) #>> '{}' as last_sign_in_at`;

export async function startFakeGoTrue(): Promise<FakeGoTrue> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig", key_ops: ["verify"] };
  const sessions = new Map<string, Session>();
  const secretKey = `sb_secret_${randomBytes(16).toString("hex")}`;
  const publishableKey = `sb_publishable_${randomBytes(16).toString("hex")}`;
  let base = "";

  const state = {
    accessTokenSeconds: 3600,
  };

  const findUser = async (where: string, value: string) =>
    (await asService((tx) => tx.query<UserRow>(`select ${USER_COLUMNS} from auth.users where ${where}`, [value])))[0];

  const userJson = (user: UserRow) => ({
    id: user.id,
    aud: "authenticated",
    role: "authenticated",
    email: user.email,
    email_confirmed_at: user.email_confirmed_at,
    phone: "",
    confirmed_at: user.email_confirmed_at,
    last_sign_in_at: user.last_sign_in_at,
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: [],
    created_at: user.created_at,
    updated_at: user.updated_at,
    is_anonymous: false,
  });

  const sign = (claims: Record<string, unknown>, seconds = state.accessTokenSeconds) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid, typ: "JWT" })
      .setIssuer(`${base}/auth/v1`)
      .setAudience("authenticated")
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(privateKey);

  async function issue(user: UserRow, session: Session) {
    const now = Math.floor(Date.now() / 1000);
    const accessToken = await sign({
      sub: user.id,
      email: user.email,
      phone: "",
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: "authenticated",
      aal: "aal1",
      amr: [{ method: "password", timestamp: now }],
      session_id: session.id,
      is_anonymous: false,
    });
    return {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: state.accessTokenSeconds,
      expires_at: now + state.accessTokenSeconds,
      refresh_token: session.refreshToken,
      user: userJson(user),
    };
  }

  async function bearerSession(request: http.IncomingMessage): Promise<{ user: UserRow; session: Session } | null> {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, publicKey, { issuer: `${base}/auth/v1` });
      const session = sessions.get(String(payload.session_id));
      const user = session && (await findUser("id = $1", String(payload.sub)));
      return session && user ? { user, session } : null;
    } catch {
      return null;
    }
  }

  async function handle(request: http.IncomingMessage, body: Record<string, unknown>) {
    const url = new URL(request.url ?? "/", base);
    const path = url.pathname.replace(/^\/auth\/v1/, "");
    const fail = (status: number, code: string, message: string) => ({ status, json: { code, message, msg: message } });

    if (request.method === "GET" && path === "/.well-known/jwks.json") return { status: 200, json: { keys: [jwk] } };

    if (request.method === "POST" && path === "/token") {
      const grant = url.searchParams.get("grant_type");
      if (grant === "password") {
        const user = await findUser("lower(email) = lower($1) and deleted_at is null", String(body.email ?? ""));
        const ok =
          user?.encrypted_password && (await bcrypt.compare(String(body.password ?? ""), user.encrypted_password));
        if (!user || !ok) return fail(400, "invalid_credentials", "Invalid login credentials");
        await asService((tx) => tx.query("update auth.users set last_sign_in_at = now() where id = $1", [user.id]));
        const session = { id: randomUUID(), userId: user.id, refreshToken: randomBytes(12).toString("base64url") };
        sessions.set(session.id, session);
        return { status: 200, json: await issue(user, session) };
      }
      if (grant === "refresh_token") {
        const session = [...sessions.values()].find((s) => s.refreshToken === body.refresh_token);
        const user = session && (await findUser("id = $1", session.userId));
        if (!session || !user)
          return fail(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
        session.refreshToken = randomBytes(12).toString("base64url");
        return { status: 200, json: await issue(user, session) };
      }
      return fail(400, "validation_failed", "unsupported_grant_type");
    }

    if (request.method === "POST" && path === "/signup") {
      const email = String(body.email ?? "")
        .trim()
        .toLowerCase();
      if (await findUser("lower(email) = $1", email))
        return fail(422, "user_already_exists", "User already registered");
      if (String(body.password ?? "").length < 6)
        return fail(422, "weak_password", "Password should be at least 6 characters.");
      const hash = await bcrypt.hash(String(body.password), 10);
      const [created] = await asService((tx) =>
        tx.query<{ id: string }>(
          `insert into auth.users (instance_id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
                                   raw_app_meta_data, raw_user_meta_data)
           values ('00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', $1, $2, now(), now(),
                   '{"provider": "email", "providers": ["email"]}', $3) returning id`,
          [email, hash, JSON.stringify(body.data ?? {})],
        ),
      );
      const user = created && (await findUser("id = $1", created.id));
      if (!user) return fail(500, "unexpected_failure", "insert failed");
      const session = { id: randomUUID(), userId: user.id, refreshToken: randomBytes(12).toString("base64url") };
      sessions.set(session.id, session);
      return { status: 200, json: await issue(user, session) };
    }

    if (path === "/user" && (request.method === "GET" || request.method === "PUT")) {
      const caller = await bearerSession(request);
      if (!caller) return fail(403, "bad_jwt", "invalid JWT: unable to parse or verify signature");
      if (request.method === "PUT" && typeof body.password === "string") {
        const hash = await bcrypt.hash(body.password, 10);
        await asService((tx) =>
          tx.query("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", [
            caller.user.id,
            hash,
          ]),
        );
      }
      const user = await findUser("id = $1", caller.user.id);
      return { status: 200, json: user ? userJson(user) : {} };
    }

    if (request.method === "POST" && path === "/logout") {
      const caller = await bearerSession(request);
      if (!caller) return { status: 204, json: null };
      const scope = url.searchParams.get("scope") ?? "global";
      for (const session of [...sessions.values()]) {
        if (session.userId !== caller.user.id) continue;
        const isThis = session.id === caller.session.id;
        if (scope === "global" || (scope === "local" && isThis) || (scope === "others" && !isThis))
          sessions.delete(session.id);
      }
      return { status: 204, json: null };
    }

    const admin = /^\/admin\/users\/([0-9a-f-]{36})$/.exec(path);
    if (admin && request.method === "DELETE") {
      if (request.headers.authorization !== `Bearer ${secretKey}`)
        return fail(401, "no_authorization", "This endpoint requires a valid Bearer token");
      const id = admin[1] ?? "";
      const user = await findUser("id = $1", id);
      if (!user) return fail(404, "user_not_found", "User not found");
      await asService((tx) => tx.query("delete from auth.users where id = $1", [id]));
      for (const session of [...sessions.values()]) if (session.userId === id) sessions.delete(session.id);
      return { status: 200, json: userJson(user) };
    }

    return fail(404, "not_found", `no route ${request.method} ${path}`);
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> = {};
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        body = {};
      }
      handle(request, body)
        .then(({ status, json }) => {
          response.writeHead(status, {
            "content-type": "application/json",
            "x-supabase-api-version": "2024-01-01",
          });
          response.end(json === null ? undefined : JSON.stringify(json));
        })
        .catch((error: Error) => {
          response.writeHead(500, { "content-type": "application/json" });
          response.end(JSON.stringify({ code: "unexpected_failure", message: error.message }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    secretKey,
    publishableKey,
    get accessTokenSeconds() {
      return state.accessTokenSeconds;
    },
    set accessTokenSeconds(value: number) {
      state.accessTokenSeconds = value;
    },
    liveSessions: () => [...sessions.keys()],
    sign,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
