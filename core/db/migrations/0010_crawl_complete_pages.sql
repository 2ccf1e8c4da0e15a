-- Several completed pages of one crawl in one statement (issue 4: group commit). A worker's
-- completions of one crawl that arrive while one of them is being stored wait and then go together
-- (core/store/crawl-claims.ts, completePageBatched): one lock of the crawl, one update of its
-- counters, one insert of the links of all the pages and one advance of the window instead of one
-- each, which is most of crawl_complete_page's cost. Each page keeps its own claim check, completion
-- order (seq, in the order given), document, ledger row and webhook event, exactly as
-- crawl_complete_page (0006) stores them.
--
-- Per page i (parallel arrays): p_rows[i] the claimed row, p_attempts[i] its claim token,
-- p_credits[i], p_urls[i] the final URL, p_sources[i], p_status[i], p_bodies[i] (null: zero data
-- retention), p_hooks->(i-1) (a JSON array: the page webhook row or null), p_ledger_ids[i], p_chain_ms[i] (> 0: claim
-- a next page for it, leased this long). Links (parallel arrays): p_link_page[j] the index of the
-- page that found link j, then key, new row id, URL, source, depth, external (1/0). Links of pages
-- whose claim was lost are dropped; a link found by several pages keeps its smallest depth.
-- Returns {status: 'ended'} or {status: 'done', pages: ['done'|'lost' per page], seqs, next: [claimed
-- rows, in the order of the pages that asked], ...advance}. Runs on PGlite and PostgreSQL 15+.
CREATE FUNCTION crawl_complete_pages(
  p_job text, p_team text, p_key text,
  p_rows text[], p_attempts int[], p_credits int[], p_urls text[], p_sources text[], p_status int[], p_bodies text[],
  p_hooks jsonb, p_ledger_ids text[], p_chain_ms int[],
  p_link_page int[], p_keys text[], p_ids text[], p_link_urls text[], p_link_sources text[], p_depths int[], p_external int[]
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_seq int;
  v_done int := 0;
  v_credits int := 0;
  v_pages text[] := '{}';
  v_seqs int[] := '{}';
  v_chains int := 0;
  v_lease int := 0;
  v_adv jsonb;
  v_next jsonb := '[]'::jsonb;
  v_keys text[];
  v_ids text[];
  v_urls text[];
  v_sources text[];
  v_depths int[];
  v_external int[];
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT state, done_count INTO v_state, v_seq FROM crawl_jobs WHERE id = p_job FOR UPDATE;
  IF NOT FOUND OR v_state <> 'running' THEN
    RETURN jsonb_build_object('status', 'ended');
  END IF;
  FOR i IN 1 .. coalesce(cardinality(p_rows), 0) LOOP
    UPDATE crawl_urls SET status = 'done', seq = v_seq + 1, lease_until = NULL, error_code = NULL, error = NULL, updated_at = now()
      WHERE id = p_rows[i] AND status = 'active' AND attempts = p_attempts[i];
    IF FOUND THEN
      v_seq := v_seq + 1;
      v_done := v_done + 1;
      v_credits := v_credits + p_credits[i];
      v_pages := v_pages || 'done'::text;
      v_seqs := v_seqs || v_seq;
      IF p_chain_ms[i] > 0 THEN
        v_chains := v_chains + 1;
        v_lease := greatest(v_lease, p_chain_ms[i]);
      END IF;
    ELSE
      v_pages := v_pages || 'lost'::text;
      v_seqs := v_seqs || NULL::int;
    END IF;
  END LOOP;
  IF v_done = 0 THEN
    RETURN jsonb_build_object('status', 'done', 'pages', to_jsonb(v_pages), 'seqs', to_jsonb(v_seqs), 'next', v_next,
      'running', true, 'items', '[]'::jsonb, 'pending', 1, 'delayMs', 0, 'finished', 0);
  END IF;
  INSERT INTO documents (id, job_id, team_id, url, source_url, status_code, body, size_bytes)
    SELECT p_rows[i], p_job, p_team, p_urls[i], p_sources[i], p_status[i], p_bodies[i], octet_length(p_bodies[i])
    FROM generate_subscripts(p_rows, 1) AS i
    WHERE v_pages[i] = 'done' AND p_bodies[i] IS NOT NULL
    ON CONFLICT (id) DO NOTHING;
  IF v_credits > 0 THEN
    WITH ins AS (
      INSERT INTO credit_ledger (id, team_id, api_key_id, job_id, kind, ref_id, delta)
      SELECT p_ledger_ids[i], p_team, p_key, p_job, 'scrape', p_rows[i], -p_credits[i]
      FROM generate_subscripts(p_rows, 1) AS i
      WHERE v_pages[i] = 'done' AND p_credits[i] > 0
      ON CONFLICT (kind, ref_id) DO NOTHING
      RETURNING delta
    )
    UPDATE teams SET credits = teams.credits + d.total FROM (SELECT sum(delta) AS total FROM ins) d
      WHERE teams.id = p_team AND d.total IS NOT NULL;
  END IF;
  UPDATE crawl_jobs SET done_count = v_seq, finished_count = finished_count + v_done, credits_used = credits_used + v_credits, updated_at = now()
    WHERE id = p_job;
  IF coalesce(cardinality(p_keys), 0) > 0 THEN
    SELECT array_agg(k ORDER BY o), array_agg(i ORDER BY o), array_agg(u ORDER BY o), array_agg(s ORDER BY o), array_agg(d ORDER BY o), array_agg(e ORDER BY o)
      INTO v_keys, v_ids, v_urls, v_sources, v_depths, v_external
      FROM (
        SELECT DISTINCT ON (x.k) x.k, x.i, x.u, x.s, x.d, x.e, x.o
        FROM unnest(p_link_page, p_keys, p_ids, p_link_urls, p_link_sources, p_depths, p_external) WITH ORDINALITY AS x(pg, k, i, u, s, d, e, o)
        WHERE v_pages[x.pg] = 'done'
        ORDER BY x.k, x.d, x.o
      ) links;
    PERFORM crawl_insert_discovered(p_job, v_keys, v_ids, v_urls, v_sources, v_depths, v_external);
  END IF;
  INSERT INTO webhook_deliveries (id, job_id, team_id, event, url, headers, body)
    SELECT h->>'id', p_job, p_team, h->>'event', h->>'url', h->'headers', h->>'body'
    FROM generate_subscripts(p_rows, 1) AS i, LATERAL (SELECT p_hooks -> (i - 1) AS h) hook
    WHERE v_pages[i] = 'done' AND jsonb_typeof(h) = 'object'
    ORDER BY i;
  v_adv := crawl_advance(p_job);
  IF v_chains > 0 AND (v_adv->>'delayMs')::int = 0 THEN
    WITH upd AS (
      UPDATE crawl_urls SET status = 'active', attempts = attempts + 1, lease_until = now() + v_lease * interval '1 millisecond', updated_at = now()
      WHERE id = ANY(ARRAY(
        SELECT e->>0 FROM jsonb_array_elements(v_adv->'items') WITH ORDINALITY AS x(e, o) WHERE (e->>2)::int = 0 ORDER BY o LIMIT v_chains
      )) AND status = 'queued'
      RETURNING jsonb_build_object('id', id, 'key', url_key, 'url', url, 'sourceUrl', source_url, 'depth', depth, 'external', external,
        'attempt', attempts) AS r
    )
    SELECT coalesce(jsonb_agg(upd.r), '[]'::jsonb) INTO v_next FROM upd;
  END IF;
  RETURN jsonb_build_object('status', 'done', 'pages', to_jsonb(v_pages), 'seqs', to_jsonb(v_seqs), 'next', v_next) || v_adv;
END $$;
