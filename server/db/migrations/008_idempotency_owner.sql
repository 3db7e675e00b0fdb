-- Idempotency-Key records in flight name the server process running them (its boot id, new at
-- every start), and every process says it is alive in server_processes (a heartbeat), so a record
-- left 'running' by a process that crashed is free again within seconds of the restart instead of
-- answering 409 to the resend for ten minutes (server/http/idempotency.ts).
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS boot_id text;
CREATE TABLE IF NOT EXISTS server_processes (
  boot_id text PRIMARY KEY,
  started_at timestamptz NOT NULL,
  seen_at timestamptz NOT NULL
);
