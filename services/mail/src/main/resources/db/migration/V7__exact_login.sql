-- A caller is the gateway's verified subject, compared exactly as shortener, route and notifier compare it: under the
-- table's case-insensitive collation "ALICE" was given alice's mailbox.
ALTER TABLE user_info MODIFY login VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;
