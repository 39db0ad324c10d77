/**
 * What GET /api/forms/{formId} answers an anonymous visitor (issue #13, decision 0130): the form's
 * texts and, per question, only what filling it in needs (kind, label, help, required, a choice's
 * options). Nothing else of the board. The server builds it (server/forms/public-form.ts), the
 * public form page reads it (src/screens/public-form).
 */
export interface PublicField {
  attribute_id: string;
  kind: string;
  label: string;
  help: string;
  required: boolean;
  options?: { id: string; name: string; color?: string; textColor?: string }[];
  multiple?: boolean;
  with_time?: boolean;
}

export interface PublicForm {
  id: string;
  title: string;
  description: string;
  fields: PublicField[];
  bot_check_sitekey: string | null;
}
