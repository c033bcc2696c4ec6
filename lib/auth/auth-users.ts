import { createClient } from "@supabase/supabase-js";
import { asService } from "../db/index.ts";
import { supabaseAuthConfig } from "./supabase-config.ts";

/**
 * Deletes a member's account. In Supabase mode through GoTrue's admin API (so GoTrue forgets the
 * user's identities and sessions too); built-in, by deleting the auth.users row. Either way every
 * row the member owns goes with it (each owner column cascades from auth.users).
 */
export async function deleteAuthUser(memberId: string): Promise<void> {
  const config = supabaseAuthConfig();
  if (config) {
    if (!config.secretKey) {
      throw new Error("Deleting a Supabase user needs SUPABASE_SECRET_KEY (or SUPABASE_SERVICE_ROLE_KEY).");
    }
    const admin = createClient(config.url, config.secretKey, {
      auth: { autoRefreshToken: false, persistSession: false },
    });
    const { error } = await admin.auth.admin.deleteUser(memberId);
    if (error && error.status !== 404) throw new Error(`Supabase Auth refused to delete the user: ${error.message}`);
    // GoTrue and this service share the database on Supabase; elsewhere (a fake, a separate
    // database) the row may still be here, and must not outlive the account.
  }
  await asService((tx) => tx.query("delete from auth.users where id = $1", [memberId]));
}
