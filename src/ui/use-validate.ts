import { useCallback, useEffect, useRef, useState } from 'react';
import { validateValue, type Rule } from './validators';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface ValidateState {
  /** Attach to the input, textarea or select. */
  ref: (node: Field | null) => void;
  valid: boolean;
  /** The rule that failed, or null. */
  failedRule: string | null;
  /** The message to show (from `data-validation-message` or the `message` option), when invalid. */
  message: string | null;
  /** Validates now (e.g. on submit); returns whether the value passes. */
  validate: () => boolean;
}

export const ERROR_CLASS = 'is-invalid';

/**
 * The validate directive (shell.md §5): checks the field on its change event; empty input is
 * valid; a failing field gets the `is-invalid` class and aria-invalid, and the message of its
 * `data-validation-message` attribute when there is one. Once invalid it re-checks on every
 * keystroke, so the error clears as soon as the value is fixed.
 */
export function useValidate(rules: readonly Rule[], options: { message?: string } = {}): ValidateState {
  const [node, setNode] = useState<Field | null>(null);
  const [failedRule, setFailedRule] = useState<string | null>(null);
  const rulesRef = useRef(rules);
  rulesRef.current = rules;
  const invalidRef = useRef(false);

  const run = useCallback((field: Field): boolean => {
    const result = validateValue(field.value, rulesRef.current);
    const failed = result.valid ? null : result.rule;
    invalidRef.current = failed !== null;
    field.classList.toggle(ERROR_CLASS, failed !== null);
    if (failed) field.setAttribute('aria-invalid', 'true');
    else field.removeAttribute('aria-invalid');
    setFailedRule(failed);
    return failed === null;
  }, []);

  useEffect(() => {
    if (!node) return;
    const onChange = () => run(node);
    const onInput = () => invalidRef.current && run(node);
    node.addEventListener('change', onChange);
    node.addEventListener('input', onInput);
    return () => {
      node.removeEventListener('change', onChange);
      node.removeEventListener('input', onInput);
    };
  }, [node, run]);

  const message = failedRule ? (node?.dataset.validationMessage ?? options.message ?? null) : null;
  return {
    ref: setNode,
    valid: failedRule === null,
    failedRule,
    message: message && message.length > 0 ? message : null,
    validate: () => (node ? run(node) : true),
  };
}
