import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { useLingui } from '@lingui/react';
import { HOOK_EVENT_TYPES } from '../../../../../schema/constants';
import type { HookEventType } from '../../../../../schema/hooks';

export const HOOK_EVENT_LABELS: Record<HookEventType, MessageDescriptor> = {
  'item.created': msg`An item is created`,
  'item.updated': msg`An item is changed`,
  'value.created': msg`A field gets a value`,
  'value.updated': msg`A field's value changes`,
  'comment.created': msg`A comment is written`,
  'comment.updated': msg`A comment is edited`,
};

/** The six event types as checkboxes: what a hook is sent. */
export function HookEvents({ value, onChange }: { value: HookEventType[]; onChange: (events: HookEventType[]) => void }) {
  const { i18n } = useLingui();
  const toggle = (event: HookEventType, on: boolean) => onChange(on ? HOOK_EVENT_TYPES.filter((e) => e === event || value.includes(e)) : value.filter((e) => e !== event));
  return (
    <fieldset>
      <legend>
        <Trans>Events</Trans>
      </legend>
      {HOOK_EVENT_TYPES.map((event) => (
        <label key={event}>
          <input type="checkbox" name="events" value={event} checked={value.includes(event)} onChange={(e) => toggle(event, e.target.checked)} />
          <span>
            {i18n._(HOOK_EVENT_LABELS[event])} <code dir="ltr">{event}</code>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
