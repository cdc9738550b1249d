-- GET /v2/mails/{no}/receipts tells the sender which recipients confirmed (never their keys): by mail, not by key.
CREATE INDEX ix_receipt_mail ON receipt_confirm (office_no, mail_no);
