import { useLingui } from '@lingui/react/macro';

/** The attribute kinds as people read them. */
export function useKindLabels(): (kind: string) => string {
  const { t } = useLingui();
  const labels: Record<string, string> = {
    primary: t`Primary`,
    text: t`Text`,
    'long-text': t`Long Text`,
    number: t`Number`,
    status: t`Status`,
    label: t`Label`,
    date: t`Date`,
    'date-range': t`Date range`,
    members: t`Members`,
    email: t`Email`,
    link: t`Link`,
    reference: t`Reference`,
    checkbox: t`Checkbox`,
    button: t`Button`,
    attachments: t`Attachments`,
    'custom-id': t`Custom ID`,
    'time-tracking': t`Time tracking`,
  };
  return (kind) => labels[kind] ?? kind;
}
