/** Whether to ask for push permission on profile load (push-on-load.ts; pure, for its test). */
export function shouldAskOnLoad(env: { standalone: boolean; permission: NotificationPermission | null; guest: boolean }): boolean {
  return !env.guest && env.standalone && env.permission === 'default';
}
