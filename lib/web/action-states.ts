import type { InvokeBody } from "../surfaces/invoke.ts";
import type { FormState } from "./form-state.ts";
import type { TokenFormResult } from "./token-form.ts";
import type { TokenSnippet } from "./token-snippets.ts";

// What the settings pages' server actions (app/settings/*/actions.ts) answer, here so that the forms
// under components/ that show it need not import app/.

export type ProfileState = FormState & { values?: Record<string, string> };

export type CreateTokenState = (TokenFormResult & { snippets?: TokenSnippet[] }) | { ok?: undefined };

export type SecretState = { ok?: undefined } | { ok: true; secret: string; url: string } | { ok: false; error: string };

export interface ConsoleAnswer {
  status: number;
  body: InvokeBody;
}
