/** A presence member as the protocol describes it: the user id (a string) and free-form info. */
export interface Member {
  user_id: string;
  user_info: unknown;
}

interface Subscriber {
  readonly socketId: string;
}

interface ChannelState<C extends Subscriber> {
  subscribers: Set<C>;
  /** Presence only: user id → info and how many of the user's connections are subscribed. */
  members: Map<string, { info: unknown; connections: number }>;
}

/**
 * Who is subscribed to which channel, and presence membership. A user with several connections
 * (tabs, devices) is one member: added with the first, removed with the last.
 */
export class ChannelRegistry<C extends Subscriber = Subscriber> {
  private readonly channels = new Map<string, ChannelState<C>>();

  get size() {
    return this.channels.size;
  }

  subscribers(channel: string): ReadonlySet<C> | undefined {
    return this.channels.get(channel)?.subscribers;
  }

  join(channel: string, connection: C, member?: Member): { isNewMember: boolean } {
    let state = this.channels.get(channel);
    if (!state) {
      state = { subscribers: new Set(), members: new Map() };
      this.channels.set(channel, state);
    }
    state.subscribers.add(connection);
    if (!member) return { isNewMember: false };
    const existing = state.members.get(member.user_id);
    if (existing) {
      existing.connections += 1;
      return { isNewMember: false };
    }
    state.members.set(member.user_id, { info: member.user_info, connections: 1 });
    return { isNewMember: true };
  }

  leave(channel: string, connection: C, member?: Member): { memberGone: boolean } {
    const state = this.channels.get(channel);
    if (!state) return { memberGone: false };
    state.subscribers.delete(connection);
    let memberGone = false;
    if (member) {
      const existing = state.members.get(member.user_id);
      if (existing && --existing.connections <= 0) {
        state.members.delete(member.user_id);
        memberGone = true;
      }
    }
    if (state.subscribers.size === 0) this.channels.delete(channel);
    return { memberGone };
  }

  /** The `presence` object of pusher_internal:subscription_succeeded. */
  presenceData(channel: string): { ids: string[]; hash: Record<string, unknown>; count: number } {
    const members = this.channels.get(channel)?.members ?? new Map();
    const hash: Record<string, unknown> = {};
    for (const [id, { info }] of members) hash[id] = info;
    return { ids: Object.keys(hash), hash, count: members.size };
  }
}
