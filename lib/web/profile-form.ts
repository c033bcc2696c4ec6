/** The profile fields the settings page edits; plan is shown but never sent (it is read-only). */
export const PROFILE_FIELDS = ["display_name", "handle", "bio", "timezone", "attachment_consent"] as const;

/** Only the fields present in the form, as strings: the capability's own schema validates them. */
export function profileInputFromForm(form: FormData): Record<string, string> {
  const input: Record<string, string> = {};
  for (const name of PROFILE_FIELDS) {
    const value = form.get(name);
    if (typeof value === "string") input[name] = name === "bio" ? value : value.trim();
  }
  return input;
}
