import type { Json, Timestamp } from '../types';
import type { TemplateContent } from '../../../schema/templates';

/** Tables of the templates module (migration 0165_templates). */
export interface TemplateTables {
  templates: {
    id: string;
    owner_id: number;
    /** The workspace the board was saved from (null once that workspace is gone). */
    source_team_id: number | null;
    name: string;
    description: string;
    cover_url: string | null;
    tags: Json<string[]>;
    with_items: boolean;
    link_shared: boolean;
    content: Json<TemplateContent>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  template_shares: {
    template_id: string;
    team_id: number;
    shared_by: number | null;
    created_at: Timestamp;
  };
}
