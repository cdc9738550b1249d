-- seed 001: QR-code events and their guestbooks (1M events, 10M entries); seed 003: member sign-up
CREATE TABLE qrcode_event (
  id         BIGINT       NOT NULL AUTO_INCREMENT,
  office     VARCHAR(64)  NOT NULL,
  title      VARCHAR(200) NOT NULL,
  code       CHAR(22)     NOT NULL,
  created_by VARCHAR(128) NOT NULL,
  created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  -- the seeder's row number: a rerun continues after the highest
  seed_no    BIGINT       NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_qrcode_event_code (code),
  UNIQUE KEY uk_qrcode_event_seed (seed_no),
  KEY ix_qrcode_event_office (office, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE guestbook (
  id         BIGINT       NOT NULL AUTO_INCREMENT,
  event_id   BIGINT       NOT NULL,
  name       VARCHAR(50)  NOT NULL,
  phone      VARCHAR(20)  NOT NULL,
  message    VARCHAR(500) NOT NULL,
  created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  seed_no    BIGINT       NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_guestbook_seed (seed_no),
  KEY ix_guestbook_event (event_id, id),
  CONSTRAINT fk_guestbook_event FOREIGN KEY (event_id) REFERENCES qrcode_event (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE member (
  id            BIGINT       NOT NULL AUTO_INCREMENT,
  office        VARCHAR(64)  NOT NULL,
  email         VARCHAR(254) NOT NULL,
  name          VARCHAR(50)  NOT NULL,
  password_hash VARCHAR(100) NOT NULL,
  created_at    TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id),
  UNIQUE KEY uk_member_email (office, email)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- one row per message to send, written in the registration's transaction; the sender claims it (SKIP LOCKED),
-- pushing next_attempt_at a lease ahead and counting the attempt, and settles it on that claim (attempts)
CREATE TABLE notification (
  id              BIGINT       NOT NULL AUTO_INCREMENT,
  office          VARCHAR(64)  NOT NULL,
  channel         VARCHAR(8)   NOT NULL,
  recipient       VARCHAR(254) NOT NULL,
  template        VARCHAR(32)  NOT NULL,
  subject         VARCHAR(200) NULL,
  body            VARCHAR(1000) NOT NULL,
  status          VARCHAR(8)   NOT NULL,
  attempts        INT          NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMP(6) NOT NULL,
  created_at      TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  sent_at         TIMESTAMP(6) NULL,
  last_error      VARCHAR(500) NULL,
  PRIMARY KEY (id),
  KEY ix_notification_due (status, next_attempt_at),
  KEY ix_notification_age (status, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
