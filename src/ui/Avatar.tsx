import { useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { MENU_HIDE_DELAY_MS, TOOLTIP_DISTANCE, TOOLTIP_SHOW_DELAY_MS } from '../../schema/constants';
import { avatarColorIndex, initialsOf } from './avatar-identity';
import { floatingStyle, useFloating } from './use-floating';
import { useHoverIntent } from './use-hover-intent';

export type AvatarSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

export interface AvatarProps {
  name: string;
  /** Photo URL; falls back to initials when missing or when it fails to load. */
  photoUrl?: string | null;
  size?: AvatarSize;
  /** Second line of the preview card, e.g. the e-mail address or role. */
  subtitle?: ReactNode;
  /** Extra content of the preview card; `false` turns the hover preview off. */
  preview?: ReactNode | false;
  className?: string;
}

/** A person: photo or initials on a colour derived from the name, with a hover preview card. */
export function Avatar({ name, photoUrl, size = 'md', subtitle, preview, className }: AvatarProps) {
  const anchor = useRef<HTMLSpanElement>(null);
  const card = useRef<HTMLDivElement>(null);
  // The card is a hover menu the pointer moves into: it stays the menu hide delay (400 ms) after leaving.
  const { open, enter, leave } = useHoverIntent(TOOLTIP_SHOW_DELAY_MS, MENU_HIDE_DELAY_MS);
  const withPreview = preview !== false;
  const position = useFloating(withPreview && open, anchor, card, { side: 'bottom', align: 'start' }, { distance: TOOLTIP_DISTANCE });

  return (
    <>
      <span
        ref={anchor}
        className={['ui-avatar-anchor', className].filter(Boolean).join(' ')}
        onMouseEnter={withPreview ? enter : undefined}
        onMouseLeave={withPreview ? leave : undefined}
      >
        <AvatarImage name={name} photoUrl={photoUrl} size={size} />
      </span>
      {withPreview && open
        ? createPortal(
            <div
              ref={card}
              className="ui-avatar-card"
              onMouseEnter={enter}
              onMouseLeave={leave}
              style={floatingStyle(position)}
            >
              <AvatarImage name={name} photoUrl={photoUrl} size="xl" />
              <div className="ui-avatar-card__text">
                <strong className="ui-avatar-card__name">{name}</strong>
                {subtitle ? <span className="ui-avatar-card__subtitle">{subtitle}</span> : null}
                {preview ? <div className="ui-avatar-card__extra">{preview}</div> : null}
              </div>
            </div>,
            document.body,
          )
        : null}
    </>
  );
}

/** Just the round picture, no preview (lists, stacks, the preview card itself). */
export function AvatarImage({ name, photoUrl, size = 'md' }: Pick<AvatarProps, 'name' | 'photoUrl' | 'size'>) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showPhoto = !!photoUrl && failedUrl !== photoUrl;
  return (
    <span
      className={`ui-avatar ui-avatar--${size}`}
      style={showPhoto ? undefined : { background: `var(--avatar-${avatarColorIndex(name)})` }}
      role="img"
      aria-label={name}
    >
      {showPhoto ? (
        <img src={photoUrl!} alt="" onError={() => setFailedUrl(photoUrl!)} draggable={false} />
      ) : (
        <span aria-hidden="true">{initialsOf(name)}</span>
      )}
    </span>
  );
}
