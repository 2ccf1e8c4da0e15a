/**
 * The `trawl teams ...` and `trawl keys ...` commands: argument parsing and printing around
 * core/admin/accounts.ts. `runAdmin` takes an open database and output streams, so the binary
 * (bin/admin.ts) and tests run the same code. A created key is printed once and never again.
 */
import { parseArgs } from 'node:util';
import type { Database } from '../db/client.ts';
import { RESTRICTABLE_GROUPS } from '../auth/groups.ts';
import {
  AdminError, addKey, addTeam, changeCredits, findTeam, listKeys, listTeams, restrictKey, revokeKey, updateTeam, type KeyRow, type TeamRow,
} from './accounts.ts';
import { rotateTeamWebhookSecret, teamWebhookSecret } from '../webhooks/team-secret.ts';
import { validateThreatPolicy, type ThreatPolicyInput } from '../threat/policy.ts';

export const ADMIN_USAGE = `Usage:
  trawl teams create <name> [--credits N] [--concurrency N] [--zdr on|off]
  trawl teams list [--json]
  trawl teams credits <team> [--add N | --set N]
  trawl teams update <team> [--concurrency N] [--zdr on|off] [--threat-policy JSON|none]
      --threat-policy sets the team's threatProtection ({mode, blacklist, whitelist, blockedTlds,
      riskScoreThreshold, failurePolicy}; requests override it field by field); "none" removes it
  trawl teams webhook-secret <team> [--rotate]                    (the secret that signs the team's webhooks)
  trawl keys create --team <team> [--name NAME] [--admin] [--formats a,b] [--endpoints a,b]
  trawl keys list [--team <team>] [--all] [--json]
  trawl keys restrict <key> [--formats a,b] [--endpoints a,b]     (an empty list "" lifts the restriction)
  trawl keys revoke <key>

<team> is a team id or name; <key> is a key id or the first 8+ characters of the key.
Endpoint groups: ${RESTRICTABLE_GROUPS.join(', ')} (team, usage and support endpoints are always allowed).`;

export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
  /** Format names restrictions are checked against (the registered format plugins). */
  knownFormats?: readonly string[];
  /** Default credits and concurrency of new teams. */
  defaults: { credits: number; concurrency: number };
  /** TRAWL_WEBHOOK_SECRET: the local team's webhook secret when set (core/webhooks/team-secret.ts). */
  legacyWebhookSecret?: string;
}

const OPTIONS = {
  credits: { type: 'string' }, concurrency: { type: 'string' }, zdr: { type: 'string' }, team: { type: 'string' },
  name: { type: 'string' }, admin: { type: 'boolean' }, formats: { type: 'string' }, endpoints: { type: 'string' },
  add: { type: 'string' }, set: { type: 'string' }, json: { type: 'boolean' }, all: { type: 'boolean' }, rotate: { type: 'boolean' },
  'threat-policy': { type: 'string' },
} as const;

function int(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v.trim())) throw new AdminError(`${what} needs a whole number, got "${v}".`);
  return Number(v);
}

const csv = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));
const onOff = (v: string | undefined) => {
  if (v === undefined) return undefined;
  if (['on', 'true', '1', 'yes'].includes(v)) return true;
  if (['off', 'false', '0', 'no'].includes(v)) return false;
  throw new AdminError(`--zdr takes on or off, got "${v}".`);
};
/** `--threat-policy`: a JSON policy (validated as a request's would be), or `none` (null: no team policy). */
function parseThreatPolicy(v: string): ThreatPolicyInput | null {
  if (['none', 'off', ''].includes(v.trim())) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(v);
  } catch {
    throw new AdminError(`--threat-policy needs a JSON object or "none", got "${v.slice(0, 100)}".`);
  }
  try {
    return validateThreatPolicy(raw, '--threat-policy');
  } catch (e) {
    throw new AdminError((e as Error).message);
  }
}

const date = (d: Date | null) => (d ? d.toISOString().replace(/\.\d+Z$/, 'Z') : '-');

function teamLine(t: TeamRow): string {
  return [t.id, t.name, `credits=${t.credits}`, `concurrency=${t.concurrency}`, `zdr=${t.zdrEnabled ? 'on' : 'off'}`, `keys=${t.keys}`].join('  ');
}

function keyLine(k: KeyRow): string {
  const restr = k.restricted
    ? `[Restricted] formats=${k.allowedFormats.join(',') || '*'} endpoints=${k.allowedEndpoints.join(',') || '*'}`
    : 'unrestricted';
  return [k.id, `${k.prefix}...`, `team=${k.teamName}`, `name=${k.name}`, k.isAdmin ? 'admin' : '', restr, `last-used=${date(k.lastUsedAt)}`, k.revokedAt ? `REVOKED ${date(k.revokedAt)}` : '']
    .filter(Boolean)
    .join('  ');
}

/**
 * Runs one admin command.
 * @param argv arguments after the binary name, e.g. `['keys', 'create', '--team', 'acme']`
 * @returns the exit code (0 ok, 1 refused, 2 usage error)
 */
export async function runAdmin(argv: string[], db: Database, io: AdminIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    io.err(`trawl: ${(e as Error).message}\n\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const [area, command, target] = parsed.positionals;
  const v = parsed.values;
  const json = (x: unknown) => io.out(`${JSON.stringify(x, null, 2)}\n`);
  try {
    switch (`${area} ${command}`) {
      case 'teams create': {
        if (!target) break;
        const t = await addTeam(db, {
          name: target, credits: int(v.credits, '--credits') ?? io.defaults.credits, concurrency: int(v.concurrency, '--concurrency') ?? io.defaults.concurrency,
          zdr: onOff(v.zdr) ?? false,
        });
        io.out(`${teamLine(t)}\n`);
        return 0;
      }
      case 'teams list': {
        const teams = await listTeams(db);
        if (v.json) json(teams);
        else io.out(teams.map((t) => `${teamLine(t)}\n`).join(''));
        return 0;
      }
      case 'teams credits': {
        if (!target) break;
        const t = await changeCredits(db, target, { add: int(v.add, '--add'), set: int(v.set, '--set') });
        io.out(`${t.name}: ${t.credits} credits\n`);
        return 0;
      }
      case 'teams update': {
        if (!target) break;
        const threatPolicy = v['threat-policy'] === undefined ? undefined : parseThreatPolicy(v['threat-policy']);
        io.out(`${teamLine(await updateTeam(db, target, { concurrency: int(v.concurrency, '--concurrency'), zdr: onOff(v.zdr), threatPolicy }))}\n`);
        if (threatPolicy !== undefined) io.out(`threat-policy=${JSON.stringify(threatPolicy)}\n`);
        return 0;
      }
      case 'teams webhook-secret': {
        if (!target) break;
        const t = await findTeam(db, target);
        const secret = v.rotate
          ? await rotateTeamWebhookSecret(db, t.id, io.legacyWebhookSecret).catch((e) => {
              throw new AdminError((e as Error).message);
            })
          : await teamWebhookSecret(db, t.id, io.legacyWebhookSecret);
        io.out(`${t.name}: ${secret}\n`);
        return 0;
      }
      case 'keys create': {
        if (!v.team) throw new AdminError('keys create needs --team <team id or name>.');
        const k = await addKey(db, v.team, { name: v.name, admin: v.admin, formats: csv(v.formats), endpoints: csv(v.endpoints) }, io.knownFormats);
        io.out(`Created key ${k.id} for team ${k.teamName}. It is shown once; store it now:\n\n  ${k.key}\n\n`);
        return 0;
      }
      case 'keys list': {
        const keys = await listKeys(db, { team: v.team, includeRevoked: v.all });
        if (v.json) json(keys);
        else io.out(keys.map((k) => `${keyLine(k)}\n`).join(''));
        return 0;
      }
      case 'keys restrict': {
        if (!target) break;
        if (v.formats === undefined && v.endpoints === undefined) throw new AdminError('keys restrict needs --formats and/or --endpoints.');
        io.out(`${keyLine(await restrictKey(db, target, { formats: csv(v.formats), endpoints: csv(v.endpoints) }, io.knownFormats))}\n`);
        io.out('Running servers apply the change within a minute.\n');
        return 0;
      }
      case 'keys revoke': {
        if (!target) break;
        io.out(`${keyLine(await revokeKey(db, target))}\n`);
        return 0;
      }
    }
  } catch (e) {
    if (e instanceof AdminError) {
      io.err(`trawl: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  io.err(`${ADMIN_USAGE}\n`);
  return 2;
}
