import { request } from '../../api/client';
import type { WhitelabelAsset, WhitelabelState } from '../../../schema/whitelabel';

/** The white-label endpoints (workspace.md §7, decision 0265; docs/api/whitelabel.md). */
const base = (teamId: number) => `/api/teams/whitelabel/${teamId}`;
const dataOf = (answer: { data: WhitelabelState }) => answer.data;

export interface SmtpInput {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  /** Omitted: keep the stored one. */
  password?: string | null;
  from: string;
}

export const WhitelabelApi = {
  get: async (teamId: number) => dataOf(await request('GET', base(teamId))),
  save: async (teamId: number, body: { settings?: Record<string, string | null>; domain?: string | null; smtp?: SmtpInput | null }) => dataOf(await request('PUT', base(teamId), body)),
  upload: async (teamId: number, asset: WhitelabelAsset, file: File) => {
    const form = new FormData();
    form.append(asset, file);
    return dataOf(await request('POST', `${base(teamId)}/assets`, form));
  },
  remove: async (teamId: number, asset: WhitelabelAsset) => {
    const form = new FormData();
    form.append('remove', asset);
    return dataOf(await request('POST', `${base(teamId)}/assets`, form));
  },
  verify: async (teamId: number) => dataOf(await request('POST', `${base(teamId)}/verify`, {})),
  testMail: (teamId: number, email: string) => request('POST', `${base(teamId)}/test-mail`, { email }),
};
