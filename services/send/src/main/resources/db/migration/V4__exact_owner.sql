-- A delivery's owner is the gateway's verified subject, compared exactly as shortener, route and notifier compare it:
-- under the table's case-insensitive collation "ALICE" read alice's delivery status.
ALTER TABLE delivery_job MODIFY owner VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;
