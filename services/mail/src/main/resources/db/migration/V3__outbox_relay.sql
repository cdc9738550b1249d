-- The outbox relay (send issue). A row is claimed with SELECT ... FOR UPDATE SKIP LOCKED and its next_attempt_at
-- moved a lease ahead, so no other relay takes it while it is pushed (with no transaction open); it is then marked
-- sent. A relay that dies mid-push loses the row when the lease runs out, and send's idempotency by mail number
-- makes the second push harmless.
ALTER TABLE outbox
  ADD COLUMN attempts        INT          NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at DATETIME(6)  NULL,
  ADD COLUMN last_error      VARCHAR(500) NULL,
  -- a push send refused for good (a 4xx answer): kept for an operator, never retried
  ADD COLUMN dead_at         DATETIME(6)  NULL;

UPDATE outbox SET next_attempt_at = created_at WHERE next_attempt_at IS NULL;
ALTER TABLE outbox MODIFY next_attempt_at DATETIME(6) NOT NULL;
CREATE INDEX ix_outbox_due ON outbox (sent_at, dead_at, next_attempt_at);
