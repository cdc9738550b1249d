-- notifications per window (perflab.notifier.quota): one counter row per window and subject, added to in the
-- registration's own transaction, so every replica counts against the same row and a refusal rolls its increment back.
-- scope 'office' (office, subject ''), 'user' (office, the user), 'recipient' (office '', the phone or address: a
-- recipient is protected whichever office asks)
CREATE TABLE notification_quota (
  window_start  DATETIME     NOT NULL,
  scope         VARCHAR(9)   NOT NULL,
  office        VARCHAR(64)  NOT NULL,
  subject       VARCHAR(254) NOT NULL,
  notifications INT          NOT NULL,
  PRIMARY KEY (window_start, scope, office, subject)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
