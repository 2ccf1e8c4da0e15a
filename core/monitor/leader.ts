/**
 * One leader among any number of scheduler processes (issue 20 scope 3): a lease row in
 * `scheduler_leases`, taken when free or expired and renewed by its holder, timed by the database's
 * `now()` so processes on machines with different clocks agree. It works the same on Postgres and on
 * the embedded PGlite (where there is one process anyway). A killed leader stops renewing; another
 * process takes the lease within one lease period. Each new holder gets a larger `token`, and work done
 * as leader re-checks the lease inside its own transaction (`holdsLease`), so a deposed leader that
 * wakes up late cannot act.
 */
import { hostname } from 'node:os';
import type { Queryable } from '../db/client.ts';

/** A process's identity in the lease table: host, pid and a random part (the pid lets tests find the leader). */
export function newHolderId(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Takes or renews lease `name` for `holder` for `leaseMs`.
 * @returns the lease token when `holder` holds the lease now, undefined when another holder does
 */
export async function acquireLease(db: Queryable, name: string, holder: string, leaseMs: number): Promise<number | undefined> {
  const rows = await db.query<{ token: number }>(
    `insert into scheduler_leases (name, holder, token, lease_until) values ($1, $2, 1, now() + ($3::int * interval '1 millisecond'))
     on conflict (name) do update set holder = excluded.holder, lease_until = excluded.lease_until,
       token = case when scheduler_leases.holder = excluded.holder then scheduler_leases.token else scheduler_leases.token + 1 end
     where scheduler_leases.holder = excluded.holder or scheduler_leases.lease_until < now()
     returning token`,
    [name, holder, leaseMs],
  );
  return rows[0] ? Number(rows[0].token) : undefined;
}

/**
 * Inside a transaction: whether `holder` still holds lease `name` with `token`. Locks the lease row
 * (share) so that nobody can take it over until the transaction ends.
 */
export async function holdsLease(tx: Queryable, name: string, holder: string, token: number): Promise<boolean> {
  const rows = await tx.query(
    'select 1 from scheduler_leases where name = $1 and holder = $2 and token = $3 and lease_until > now() for share',
    [name, holder, token],
  );
  return rows.length > 0;
}

/** Gives the lease up (clean shutdown), so another process takes over at once (with the next token). */
export async function releaseLease(db: Queryable, name: string, holder: string): Promise<void> {
  await db.query(`update scheduler_leases set lease_until = now() - interval '1 second' where name = $1 and holder = $2`, [name, holder]);
}
