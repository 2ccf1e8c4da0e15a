-- Crawl frontier functions (issue 4): the hot paths of a crawl run server-side, so a crawl's row lock
-- is held only while the database works, never across client round trips. Callers:
-- core/store/crawl-urls.ts and core/store/crawl-claims.ts. Runs on PGlite and PostgreSQL 15+.

-- Inserts discovered URLs of crawl p_job (the caller holds its crawl_jobs row lock). New URLs fill
-- the free `limit` slots as backlog, then become excess (at most url_limit of them); known pending
-- rows take the smaller depth. Returns [added backlog rows, added excess rows].
CREATE FUNCTION crawl_insert_discovered(p_job text, p_keys text[], p_ids text[], p_urls text[], p_sources text[], p_depths int[], p_external int[])
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_free int;
  v_room int;
  v_added int;
  v_over int;
BEGIN
  IF coalesce(cardinality(p_keys), 0) = 0 THEN
    RETURN jsonb_build_array(0, 0);
  END IF;
  SELECT greatest(0, url_limit - accepted), greatest(0, url_limit - excess) INTO v_free, v_room FROM crawl_jobs WHERE id = p_job;
  UPDATE crawl_urls w SET depth = c.d
    FROM unnest(p_keys, p_depths) AS c(k, d)
    WHERE w.job_id = p_job AND w.url_key = c.k AND w.depth > c.d AND w.status IN ('backlog', 'queued', 'excess');
  WITH c AS (
    SELECT x.k, x.i, x.u, x.s, x.d, x.e, x.o
    FROM unnest(p_keys, p_ids, p_urls, p_sources, p_depths, p_external) WITH ORDINALITY AS x(k, i, u, s, d, e, o)
  ), fresh AS (
    SELECT c.*, row_number() OVER (ORDER BY c.o) AS rn FROM c
    WHERE NOT EXISTS (SELECT 1 FROM crawl_urls w WHERE w.job_id = p_job AND w.url_key = c.k)
  ), ins AS (
    INSERT INTO crawl_urls (job_id, url_key, id, url, source_url, depth, external, status)
    SELECT p_job, fresh.k, fresh.i, fresh.u, fresh.s, fresh.d, fresh.e = 1, CASE WHEN fresh.rn <= v_free THEN 'backlog' ELSE 'excess' END
    FROM fresh WHERE fresh.rn <= v_free + v_room
    ON CONFLICT DO NOTHING
    RETURNING crawl_urls.status
  )
  SELECT count(*) FILTER (WHERE ins.status = 'backlog'), count(*) FILTER (WHERE ins.status = 'excess') INTO v_added, v_over FROM ins;
  IF v_added + v_over > 0 THEN
    UPDATE crawl_jobs SET accepted = accepted + v_added, excess = excess + v_over, updated_at = now() WHERE id = p_job;
  END IF;
  RETURN jsonb_build_array(v_added, v_over);
END $$;

-- Moves backlog rows of crawl p_job (lock held by the caller) to queued up to its concurrency,
-- breadth first. Returns {running, items: [[row id, enqueue number, attempts]], pending (rows still
-- backlog, queued or active, counted as more than 0 when any), delayMs, finished}.
CREATE FUNCTION crawl_advance(p_job text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_concurrency int;
  v_delay int;
  v_finished int;
  v_inflight int;
  v_items jsonb;
  v_backlog boolean;
BEGIN
  SELECT state, concurrency, delay_ms, finished_count INTO v_state, v_concurrency, v_delay, v_finished FROM crawl_jobs WHERE id = p_job;
  IF NOT FOUND OR v_state <> 'running' THEN
    RETURN jsonb_build_object('running', false, 'items', '[]'::jsonb, 'pending', 0, 'delayMs', 0, 'finished', 0);
  END IF;
  SELECT count(*) INTO v_inflight FROM crawl_urls WHERE job_id = p_job AND status IN ('queued', 'active');
  WITH picked AS (
    SELECT url_key FROM crawl_urls WHERE job_id = p_job AND status = 'backlog' ORDER BY depth, id LIMIT greatest(0, v_concurrency - v_inflight)
  ), upd AS (
    UPDATE crawl_urls SET status = 'queued', enqueues = enqueues + 1, enqueued_at = now(), updated_at = now()
    WHERE job_id = p_job AND url_key IN (SELECT url_key FROM picked)
    RETURNING id, enqueues, attempts
  )
  SELECT coalesce(jsonb_agg(jsonb_build_array(upd.id, upd.enqueues, upd.attempts)), '[]'::jsonb) INTO v_items FROM upd;
  v_backlog := EXISTS (SELECT 1 FROM crawl_urls WHERE job_id = p_job AND status = 'backlog');
  RETURN jsonb_build_object('running', true, 'items', v_items, 'pending', v_inflight + jsonb_array_length(v_items) + v_backlog::int,
    'delayMs', v_delay, 'finished', v_finished);
END $$;

-- Completes a scraped page in one statement (run it outside an explicit transaction so the lock ends
-- with it): locks the crawl, checks the claim (row active with attempt p_attempt), marks the row done
-- as the next page in completion order, stores the document (unless p_body is null: zero data
-- retention), adds credits, inserts the discovered links, records the page webhook event (p_hook),
-- and advances the window. Commits asynchronously: a database crash can only lose the latest
-- completions, whose pages are then scraped again. With p_chain_ms > 0 the caller also claims one
-- page the advance let in (no delay), leased for p_chain_ms, to run it next without the queue.
-- Returns {status: done|lost|ended, seq, next (claimed row or null), ...advance}.
CREATE FUNCTION crawl_complete_page(
  p_job text, p_row text, p_attempt int, p_credits int, p_team text, p_url text, p_source text, p_status_code int, p_body text,
  p_keys text[], p_ids text[], p_urls text[], p_sources text[], p_depths int[], p_external int[], p_hook jsonb, p_chain_ms int
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
