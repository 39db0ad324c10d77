/**
 * Cairn's shared UI library. Import styles once at the app entry: `import './ui/theme.css'`.
 * Pure modules (toast-store, validators, dropdown-search, pull-to-refresh-state, query-flag,
 * position, menu-navigation) can be imported directly in tests and non-React code.
 */
export { Avatar, AvatarImage, type AvatarProps, type AvatarSize } from './Avatar';
export { BusyButton, type BusyButtonProps } from './BusyButton';
export { Button, type ButtonProps, type ButtonVariant, type ButtonSize } from './Button';
export { ConfirmDialog, ConfirmHost, type ConfirmDialogProps } from './ConfirmDialog';
export { confirm, confirmStore, createConfirmStore, type ConfirmOptions } from './confirm-store';
export { ContextMenu, type ContextMenuProps } from './ContextMenu';
export { EmptyState, type EmptyStateProps } from './EmptyState';
export { MenuList, type MenuItem } from './MenuList';
export { MobileHeader, type MobileHeaderProps } from './MobileHeader';
export { Modal, type ModalProps } from './Modal';
export { PopupMenu, type PopupMenuProps, type MenuTriggerProps } from './PopupMenu';
export { PullToRefresh, type PullToRefreshProps } from './PullToRefresh';
export { Select, type SelectOption, type SelectProps } from './Select';
export { Spinner, type SpinnerProps } from './Spinner';
export { Toaster } from './Toaster';
export { Tooltip, type TooltipProps } from './Tooltip';
export { UiHost } from './UiHost';
export { ValidatedInput, type ValidatedInputHandle, type ValidatedInputProps } from './ValidatedInput';
export * as icons from './icons';

export { toast, setToastTestMode, testModeFromSearch, createToastStore, type Toast, type ToastKind, type ToastOptions, type ToastStore } from './toast-store';
export { useValidate, ERROR_CLASS, type ValidateState } from './use-validate';
export { validateValue, isEmail, isEmailList, isUrl, splitEmails, type Rule } from './validators';
export { filterOptions, matchesOption } from './dropdown-search';
export { useQueryFlag, QueryFlagContext } from './use-query-flag';
export { createHistoryQueryFlags, browserQueryFlags, type QueryFlagAdapter } from './query-flag';
export { NAVIGATE_EVENT, announceNavigation, onRouteChange } from './navigation-events';
export { applyCustomColors, applyTheme, resolveTheme, COLOR_TOKENS, type ThemeMode, type ThemeName } from './tokens';
