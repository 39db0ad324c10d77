import type { Migration } from '../migrate';
import { m0270_sso } from './0270_sso';
import { m0271_sso_enforce } from './0271_sso_enforce';
import { m0272_sso_links } from './0272_sso_links';
import { m0273_referral_holds } from './0273_referral_holds';
import { m0346_sync_conflicts } from './0346_sync_conflicts';
import { m0030_sync } from './0030_sync';
import { m0031_sync_child_indexes } from './0031_sync_child_indexes';
import { m0070_board_passwords } from './0070_board_passwords';
import { m0090_throttles_and_sessions } from './0090_throttles_and_sessions';
import { m0001_accounts } from './0001_accounts';
import { m0002_workspaces } from './0002_workspaces';
import { m0010_account_tokens } from './0010_account_tokens';
import { m0011_token_rotation_grace } from './0011_token_rotation_grace';
import { m0091_uploads } from './0091_uploads';
import { m0100_events_jobs } from './0100_events_jobs';
import { m0101_notifications } from './0101_notifications';
import { m0102_server_identity } from './0102_server_identity';
import { m0103_records_board_paging } from './0103_records_board_paging';
import { m0150_automations } from './0150_automations';
import { m0200_automation_usage_shards } from './0200_automation_usage_shards';
import { m0140_hooks } from './0140_hooks';
import { m0145_api_tokens_oauth } from './0145_api_tokens_oauth';
import { m0170_board_primary_attributes } from './0170_board_primary_attributes';
import { m0165_templates } from './0165_templates';
import { m0160_board_jobs } from './0160_board_jobs';
import { m0225_board_job_files } from './0225_board_job_files';
import { m0230_shell_settings } from './0230_shell_settings';
import { m0240_plan_catalogue } from './0240_plan_catalogue';
import { m0250_payments } from './0250_payments';
import { m0260_referral } from './0260_referral';
import { m0255_ltd_addons_cancellation } from './0255_ltd_addons_cancellation';
import { m0265_whitelabel } from './0265_whitelabel';
import { m0351_change_log_compaction } from './0351_change_log_compaction';

/** Every migration of every module. Add yours with a new, later name; never edit a shipped one. */
export const migrations: Migration[] = [
  m0001_accounts,
  m0002_workspaces,
  m0010_account_tokens,
  m0011_token_rotation_grace,
  m0030_sync,
  m0031_sync_child_indexes,
  m0070_board_passwords,
  m0090_throttles_and_sessions,
  m0091_uploads,
  m0100_events_jobs,
  m0101_notifications,
  m0102_server_identity,
  m0103_records_board_paging,
  m0150_automations,
  m0200_automation_usage_shards,
  m0140_hooks,
  m0145_api_tokens_oauth,
  m0170_board_primary_attributes,
  m0165_templates,
  m0160_board_jobs,
  m0225_board_job_files,
  m0230_shell_settings,
  m0240_plan_catalogue,
  m0250_payments,
  m0255_ltd_addons_cancellation,
  m0260_referral,
  m0265_whitelabel,
  m0270_sso,
  m0271_sso_enforce,
  m0272_sso_links,
  m0273_referral_holds,
  m0346_sync_conflicts,
  m0351_change_log_compaction,
];
