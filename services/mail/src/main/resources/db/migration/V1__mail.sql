-- Mail store (seed 000). Mailboxes 1..9 are the system ones (Inbox, Sent, Trash) and have no personal_mailbox
-- row; personal mailboxes start at 1000 and may be locked (lockinfo_type 'A' or 'B'): their mails are hidden
-- from the list. 'N' is unlocked (never NULL: seed 000's LEFT JOIN count silently dropped NULLs).
CREATE TABLE office (
  no   BIGINT       NOT NULL PRIMARY KEY,
  name VARCHAR(100) NOT NULL
);

CREATE TABLE user_info (
  no        BIGINT       NOT NULL PRIMARY KEY,
  office_no BIGINT       NOT NULL,
  login     VARCHAR(64)  NOT NULL,
  email     VARCHAR(254) NOT NULL,
  name      VARCHAR(100) NOT NULL,
  UNIQUE KEY uk_user_login (office_no, login)
);

CREATE TABLE personal_mailbox (
  no            BIGINT       NOT NULL PRIMARY KEY AUTO_INCREMENT,
  office_no     BIGINT       NOT NULL,
  user_no       BIGINT       NOT NULL,
  name          VARCHAR(100) NOT NULL,
  lockinfo_type CHAR(1)      NOT NULL DEFAULT 'N',
  KEY ix_mailbox_owner (office_no, user_no)
) AUTO_INCREMENT = 1000;

CREATE TABLE mail_content (
  no              BIGINT        NOT NULL PRIMARY KEY AUTO_INCREMENT,
  office_no       BIGINT        NOT NULL,
  user_no         BIGINT        NOT NULL,
  mbox_no         BIGINT        NOT NULL,
  subject         VARCHAR(998)  NOT NULL,
  from_addr       VARCHAR(320)  NOT NULL,
  to_addrs        VARCHAR(4000) NOT NULL,
  received_date   DATETIME(6)   NOT NULL,
  size            BIGINT        NOT NULL,
  eml_path        VARCHAR(255)  NOT NULL,
  compressed      BOOLEAN       NOT NULL DEFAULT FALSE,
  is_read         BOOLEAN       NOT NULL DEFAULT FALSE,
  important       BOOLEAN       NOT NULL DEFAULT FALSE,
  approval_mail   BOOLEAN       NOT NULL DEFAULT FALSE,
  encrypted       BOOLEAN       NOT NULL DEFAULT FALSE,
  receipt_confirm BOOLEAN       NOT NULL DEFAULT FALSE,
  del_flag        CHAR(1)       NOT NULL DEFAULT 'N',
  KEY ix_mail_list (office_no, user_no, del_flag, received_date),
  KEY ix_mail_mailbox (office_no, user_no, mbox_no, del_flag, received_date)
);

CREATE TABLE attachment (
  mail_no      BIGINT       NOT NULL,
  idx          INT          NOT NULL,
  name         VARCHAR(255) NOT NULL,
  size         BIGINT       NOT NULL,
  content_type VARCHAR(255) NOT NULL,
  PRIMARY KEY (mail_no, idx)
);

CREATE TABLE receipt_confirm (
  office_no    BIGINT       NOT NULL,
  cert_key     VARCHAR(64)  NOT NULL,
  email        VARCHAR(254) NOT NULL,
  mail_no      BIGINT       NOT NULL,
  confirmed_at DATETIME(6)  NULL,
  PRIMARY KEY (office_no, cert_key, email)
);

-- Send requests waiting for the send service (drained by the relay of the send issue).
CREATE TABLE outbox (
  id         BIGINT      NOT NULL PRIMARY KEY AUTO_INCREMENT,
  mail_no    BIGINT      NOT NULL,
  payload    TEXT        NOT NULL,
  created_at DATETIME(6) NOT NULL,
  sent_at    DATETIME(6) NULL,
  KEY ix_outbox_pending (sent_at, id)
);
