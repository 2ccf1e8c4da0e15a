-- Index lookups for the per-page crawl functions (issue 4). PGlite never runs ANALYZE (no
-- autovacuum), and a new crawl's rows have no statistics on PostgreSQL either, so the planner takes a
-- crawl for 2 rows and joins with a scan of all of them: crawl_advance's UPDATE (a semi join with the
-- picked rows) and crawl_insert_discovered's depth UPDATE and known-URL check each read every row of
-- the crawl, on every completed page. Half way through a 1,169-page crawl that was 3.9 ms for the
-- advance and 1 ms for five discovered links (PGlite). These versions name the rows by key, so the
-- only plan is an index probe per row, whatever the statistics:
--   - the advance updates `id = ANY(ARRAY(...picked ids))` (crawl_urls_id_idx);
--   - the depth update probes the primary key with `url_key = ANY(p_keys)`;
--   - the known-URL check is a LATERAL primary-key probe per candidate (LIMIT 1 keeps it a probe).
-- Same arguments, results and locking as 0003_crawl_functions. Runs on PGlite and PostgreSQL 15+.

CREATE OR REPLACE FUNCTION crawl_insert_discovered(p_job text, p_keys text[], p_ids text[], p_urls text[], p_sources text[], p_depths int[], p_external int[])
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
    WHERE w.job_id = p_job AND w.url_key = ANY(p_keys) AND w.url_key = c.k AND w.depth > c.d
      AND w.status IN ('backlog', 'queued', 'excess');
  WITH c AS (
    SELECT x.k, x.i, x.u, x.s, x.d, x.e, x.o
    FROM unnest(p_keys, p_ids, p_urls, p_sources, p_depths, p_external) WITH ORDINALITY AS x(k, i, u, s, d, e, o)
  ), fresh AS (
    SELECT c.*, row_number() OVER (ORDER BY c.o) AS rn
    FROM c LEFT JOIN LATERAL (SELECT true AS hit FROM crawl_urls w WHERE w.job_id = p_job AND w.url_key = c.k LIMIT 1) known ON true
    WHERE known.hit IS NULL
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

CREATE OR REPLACE FUNCTION crawl_advance(p_job text) RETURNS jsonb LANGUAGE plpgsql AS $$
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
  WITH upd AS (
    UPDATE crawl_urls SET status = 'queued', enqueues = enqueues + 1, enqueued_at = now(), updated_at = now()
    WHERE id = ANY(ARRAY(
      SELECT id FROM crawl_urls WHERE job_id = p_job AND status = 'backlog' ORDER BY depth, id LIMIT greatest(0, v_concurrency - v_inflight)
    )) AND status = 'backlog'
    RETURNING id, enqueues, attempts
  )
  SELECT coalesce(jsonb_agg(jsonb_build_array(upd.id, upd.enqueues, upd.attempts)), '[]'::jsonb) INTO v_items FROM upd;
  v_backlog := EXISTS (SELECT 1 FROM crawl_urls WHERE job_id = p_job AND status = 'backlog');
  RETURN jsonb_build_object('running', true, 'items', v_items, 'pending', v_inflight + jsonb_array_length(v_items) + v_backlog::int,
    'delayMs', v_delay, 'finished', v_finished);
END $$;
