-- Recipients each user and each office handed to the relay per clock hour (perflab.mail.quota). A send adds its
-- recipients with INSERT ... ON DUPLICATE KEY UPDATE as the last statement of its own transaction and reads the sums
-- back under the row locks: sends on any number of replicas queue on a row only for the rest of their commit, none
-- passes a limit, and a refused send rolls its increment back with its mail. window_start is the hour's start in UTC
-- and leads the key, so a new hour's rows are appended and the purge of old hours is a range of the primary key.
CREATE TABLE recipient_quota (
  window_start DATETIME   NOT NULL,
  -- 'user' (subject: user_info.no) or 'office' (subject: office.no)
  scope        VARCHAR(8) NOT NULL,
  subject      BIGINT     NOT NULL,
  recipients   INT        NOT NULL,
  PRIMARY KEY (window_start, scope, subject)
);
