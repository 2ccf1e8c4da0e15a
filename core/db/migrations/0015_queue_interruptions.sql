-- Interruptions of in-process queue jobs (issue 15 item 1): how many times the process running a job
-- stopped while the job was active (a crash, an out-of-memory kill). A job whose run kills its
-- process would otherwise be resumed, and kill the process again, on every start; core/queue/memory-
-- store.ts fails it once this count reaches the limit instead.
ALTER TABLE queue_jobs ADD COLUMN IF NOT EXISTS interruptions integer NOT NULL DEFAULT 0;
