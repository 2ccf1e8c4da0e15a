/**
 * Named persistent browser state (interface.md `profile`; compat.md §5; issue 3 scope 4). Sessions
 * with the same profile name in one team share cookies and localStorage. A session with
 * `saveChanges: true` (the default) takes the profile's lock for its whole life and writes the state
 * back when it ends; a second saving session meanwhile gets 409. With `saveChanges: false` the state
 * is only read. A scrape is one session; an interact session is another (core/interact).
 */
import type { Queryable } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { ProfileHandle, ProfileState } from '../plugin.ts';
import { TrawlError } from '../errors.ts';
import { loadProfile, lockProfile, saveProfile, unlockProfile } from './store.ts';

/** A profile opened for one session. */
export interface ProfileSession {
  /** What the browser engine receives (`EngineRequest.profile`). */
  handle: ProfileHandle;
  /** Ends the session: releases the lock (idempotent). Saving happens through `handle.save`. */
  release(): Promise<void>;
}

/**
 * Opens a profile for a session of the caller's team.
 * @param profile  the request's `profile` option
 * @param holderId the session's id (scrape id)
 * @param leaseMs  how long the session may hold the lock, ms (its timeout plus a margin)
 * @throws TrawlError CONFLICT (409) when another saving session holds the profile
 */
export type ProfileOpener = (profile: { name: string; saveChanges: boolean }, holderId: string, leaseMs: number) => Promise<ProfileSession>;

/** A `ProfileOpener` bound to one team. */
export function profileOpener(db: Queryable, teamId: string, log: Logger): ProfileOpener {
  return async (profile, holderId, leaseMs) => {
    const { name } = profile;
    if (!profile.saveChanges) {
      const state = await loadProfile(db, teamId, name);
      return { handle: { name, state }, release: async () => {} };
    }
    const lock = await lockProfile(db, teamId, name, holderId, leaseMs);
    if (!lock.locked) {
      throw new TrawlError(
        'CONFLICT',
        `The profile "${name}" is in use by another session that saves its changes; only one saving session per profile runs at a time. ` +
          'Wait for it to end, or pass profile.saveChanges: false to use the saved state read-only.',
      );
    }
    let released = false;
    return {
      handle: {
        name,
        state: lock.state,
        async save(state: ProfileState) {
          if (released) return;
          const ok = await saveProfile(db, teamId, name, holderId, state);
          if (!ok) log.warn({ profile: name }, 'profile lock was lost before saving; the changes were not written');
        },
      },
      async release() {
        if (released) return;
        released = true;
        await unlockProfile(db, teamId, name, holderId).catch((err) => log.warn({ err, profile: name }, 'could not release a profile lock'));
      },
    };
  };
}
