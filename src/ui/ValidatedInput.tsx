import { forwardRef, useId, useImperativeHandle, useRef, type InputHTMLAttributes } from 'react';
import { useValidate } from './use-validate';
import type { Rule } from './validators';

export interface ValidatedInputProps extends InputHTMLAttributes<HTMLInputElement> {
  rules: readonly Rule[];
  /** Shown under the field when a rule fails (also rendered as data-validation-message). */
  validationMessage?: string;
  /** Label text above the field. */
  label?: string;
}

export interface ValidatedInputHandle {
  /** Validates now; returns whether the value passes. */
  validate(): boolean;
  input: HTMLInputElement | null;
}

/** An input with the validate directive attached and its message wired with aria-describedby. */
export const ValidatedInput = forwardRef<ValidatedInputHandle, ValidatedInputProps>(function ValidatedInput(
  { rules, validationMessage, label, id, className, ...rest },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const messageId = `${inputId}-message`;
  const state = useValidate(rules, { message: validationMessage });
  const input = useRef<HTMLInputElement | null>(null);
  useImperativeHandle(ref, () => ({ validate: state.validate, get input() { return input.current; } }), [state.validate]);

  return (
    <div className={['ui-field', !state.valid && 'has-error', className].filter(Boolean).join(' ')}>
      {label ? (
        <label className="ui-field__label" htmlFor={inputId}>
          {label}
        </label>
      ) : null}
      <input
        {...rest}
        id={inputId}
        ref={(node) => {
          input.current = node;
          state.ref(node);
        }}
        aria-required={rules.includes('required') || rest.required || undefined}
        data-validation-message={validationMessage}
        aria-describedby={[state.message ? messageId : null, rest['aria-describedby']].filter(Boolean).join(' ') || undefined}
      />
      {state.message ? (
        <p id={messageId} className="ui-field__error" role="alert">
          {state.message}
        </p>
      ) : null}
    </div>
  );
});
