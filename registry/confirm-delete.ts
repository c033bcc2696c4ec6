import { z } from "zod";

/**
 * What a delete tool answers when the credential asks the member to confirm destructive calls
 * (CredentialLimits.confirmDestructive): nothing is deleted; the member confirms on the settings
 * page at `url`, signed in, and only then the store deletes. Not a tool of its own: it is the
 * answer of every delete tool for such a credential, so the catalog describes it as their output.
 */
export const confirmDeleteDirective = z
  .strictObject({
    type: z.literal("confirm_delete").describe("Always confirm_delete."),
    confirmation_id: z.uuid().describe("The pending confirmation."),
    url: z
      .url()
      .describe(
        "The settings page where the member sees what would be deleted and confirms; open it in the member's browser.",
      ),
    tool: z.string().describe("The delete tool that was called."),
    resource: z.string().describe("What would be deleted, e.g. item or collection."),
    id: z.uuid().describe("The id of the row that would be deleted."),
    expires_at: z.string().describe("After this time the confirmation lapses and nothing is deleted."),
  })
  .describe(
    "Nothing was deleted: this credential asks the member to confirm deletes. Show the member the url; the delete happens only when they confirm there.",
  );

export type ConfirmDeleteDirective = z.infer<typeof confirmDeleteDirective>;

/** How long a pending delete waits for the member (the table's default says the same). */
export const DELETE_CONFIRMATION_DAYS = 7;

/** The sentence the catalog appends to a delete tool's description for such a credential. */
export const CONFIRM_DELETE_NOTE =
  "With this credential a delete is not carried out at once: the answer is a confirm_delete directive, and the member confirms in the browser before anything is deleted.";
