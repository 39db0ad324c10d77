import type { ReactNode } from 'react';
import { Page } from '../Page';
import { brandName } from '../../whitelabel/tenant';

/** Centered card for the signed-out screens. */
export function AuthFrame({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <div className="auth-frame">
      <div className="auth-card">
        <p className="auth-brand" aria-hidden="true">
          {brandName()}
        </p>
        <Page title={title} narrow>
          {children}
        </Page>
      </div>
    </div>
  );
}

/** The inline error of a form, announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert" data-testid="form-error">
      {message}
    </p>
  );
}
