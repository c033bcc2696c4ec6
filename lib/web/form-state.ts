/** What a settings form's server action answers; the page shows it in a live region. */
export interface FormState {
  error?: string;
  /** Field name → message, for fields the service refused. */
  fields?: Record<string, string>;
  notice?: string;
  /** What was typed, sent back so a refused form is not emptied by React's reset. */
  values?: Record<string, string>;
}

export const NOT_SAME_ORIGIN: FormState = {
  error: "This form was sent from another site or without an Origin header, so it was refused.",
};
