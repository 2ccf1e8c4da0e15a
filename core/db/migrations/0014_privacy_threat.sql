-- threatProtection as a team policy (issue 17): `trawl teams update <team> --threat-policy '<json>'`
-- (also through POST /admin/commands). Null: no team policy (only a request's own lists apply).
ALTER TABLE teams ADD COLUMN threat_policy jsonb;
