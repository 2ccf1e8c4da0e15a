-- Crawl pages are charged in the statement that stores them (issue 4: one statement per page instead
-- of two; the charge and the page commit together). Replaces crawl_complete_page of
-- 0003_crawl_functions with two more parameters. Runs on PGlite and PostgreSQL 15+.

DROP FUNCTION crawl_complete_page(text, text, int, int, text, text, text, int, text, text[], text[], text[], text[], int[], int[], jsonb, int);

-- Completes a scraped page in one statement (run it outside an explicit transaction so the lock ends
-- with it): locks the crawl, checks the claim (row active with attempt p_attempt), marks the row done
-- as the next page in completion order, stores the document (unless p_body is null: zero data
-- retention), adds credits to the crawl and charges them to the team (one credit_ledger row of kind
-- 'scrape' per page id, idempotent, in the same statement so the page and its charge are never apart;
-- p_key is the API key for usage history, p_ledger_id the new ledger row's id), inserts the
-- discovered links, records the page webhook event (p_hook), and advances the window. Commits asynchronously: a database crash can only lose the latest
-- completions, whose pages are then scraped again. With p_chain_ms > 0 the caller also claims one
-- page the advance let in (no delay), leased for p_chain_ms, to run it next without the queue.
-- Returns {status: done|lost|ended, seq, next (claimed row or null), ...advance}.
CREATE FUNCTION crawl_complete_page(
  p_job text, p_row text, p_attempt int, p_credits int, p_team text, p_url text, p_source text, p_status_code int, p_body text,
  p_keys text[], p_ids text[], p_urls text[], p_sources text[], p_depths int[], p_external int[], p_hook jsonb, p_chain_ms int,
  p_key text, p_ledger_id text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_seq int;
  v_adv jsonb;
  v_next jsonb;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT state, done_count + 1 INTO v_state, v_seq FROM crawl_jobs WHERE id = p_job FOR UPDATE;
  IF NOT FOUND OR v_state <> 'running' THEN
    RETURN jsonb_build_object('status', 'ended');
  END IF;
  UPDATE crawl_urls SET status = 'done', seq = v_seq, lease_until = NULL, error_code = NULL, error = NULL, updated_at = now()
    WHERE id = p_row AND status = 'active' AND attempts = p_attempt;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'lost');
  END IF;
  IF p_body IS NOT NULL THEN
    INSERT INTO documents (id, job_id, team_id, url, source_url, status_code, body, size_bytes)
    VALUES (p_row, p_job, p_team, p_url, p_source, p_status_code, p_body, octet_length(p_body))
    ON CONFLICT (id) DO NOTHING;
  END IF;
  IF p_credits > 0 THEN
    WITH ins AS (
      INSERT INTO credit_ledger (id, team_id, api_key_id, job_id, kind, ref_id, delta)
      VALUES (p_ledger_id, p_team, p_key, p_job, 'scrape', p_row, -p_credits)
      ON CONFLICT (kind, ref_id) DO NOTHING
      RETURNING delta
    )
    UPDATE teams SET credits = teams.credits + ins.delta FROM ins WHERE teams.id = p_team;
  END IF;
  UPDATE crawl_jobs SET done_count = v_seq, finished_count = finished_count + 1, credits_used = credits_used + p_credits, updated_at = now()
    WHERE id = p_job;
  PERFORM crawl_insert_discovered(p_job, p_keys, p_ids, p_urls, p_sources, p_depths, p_external);
  IF p_hook IS NOT NULL THEN
    INSERT INTO webhook_deliveries (id, job_id, team_id, event, url, headers, body)
    VALUES (p_hook->>'id', p_job, p_team, p_hook->>'event', p_hook->>'url', p_hook->'headers', p_hook->>'body');
  END IF;
  v_adv := crawl_advance(p_job);
  IF p_chain_ms > 0 AND (v_adv->>'delayMs')::int = 0 THEN
    UPDATE crawl_urls SET status = 'active', attempts = attempts + 1, lease_until = now() + p_chain_ms * interval '1 millisecond', updated_at = now()
      WHERE id = (SELECT e->>0 FROM jsonb_array_elements(v_adv->'items') AS e WHERE (e->>2)::int = 0 LIMIT 1) AND status = 'queued'
      RETURNING jsonb_build_object('id', id, 'key', url_key, 'url', url, 'sourceUrl', source_url, 'depth', depth, 'external', external,
        'attempt', attempts) INTO v_next;
  END IF;
  RETURN jsonb_build_object('status', 'done', 'seq', v_seq, 'next', v_next) || v_adv;
END $$;
